import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalAuthStore, MemoryAuthStore, authStorageKey, isTokenValid, tokenPayload } from './authStore';
import type { RecordModel } from './authStore';

/** An unsigned JWT with `claims` as its payload (base64url, as servers write it). */
function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.signature`;
}

const now = () => Math.floor(Date.now() / 1000);
const alice: RecordModel = { id: 'alice0000000001', collectionId: '_pb_users_auth_', collectionName: 'users', username: 'alice' };

describe('token validity (the SDK rule)', () => {
  it.each<[string, string, boolean]>([
    ['exp in the future', jwt({ id: 'a', exp: now() + 60 }), true],
    ['exp in the past', jwt({ id: 'a', exp: now() - 1 }), false],
    ['no exp claim', jwt({ id: 'a' }), true],
    ['an empty payload', jwt({}), false],
    ['no token', '', false],
    ['not a JWT', 'not-a-token', false],
    ['a payload that is not base64 JSON', 'x.%%%.y', false],
    ['base64url characters and non-ASCII text', jwt({ id: 'a', name: 'Zoë ~~~???>>>', exp: now() + 60 }), true],
  ])('%s', (_, token, valid) => {
    expect(isTokenValid(token)).toBe(valid);
  });

  it('decodes the payload as UTF-8', () => {
    expect(tokenPayload(jwt({ name: 'Zoë 日本' }))).toEqual({ name: 'Zoë 日本' });
  });
});

describe('MemoryAuthStore', () => {
  it('saves, reports validity and clears', () => {
    const store = new MemoryAuthStore();
    expect([store.token, store.record, store.isValid]).toEqual(['', null, false]);
    const token = jwt({ id: alice.id, exp: now() + 3600 });
    store.save(token, alice);
    expect([store.token, store.record, store.isValid]).toEqual([token, alice, true]);
    store.save(jwt({ id: alice.id, exp: now() - 10 }), alice);
    expect(store.isValid).toBe(false);
    store.clear();
    expect([store.token, store.record, store.isValid]).toEqual(['', null, false]);
  });

  it('tells listeners of every change until they unsubscribe, and at once when asked', () => {
    const store = new MemoryAuthStore();
    const seen: Array<[string, string | null]> = [];
    const stop = store.onChange((token, record) => seen.push([token, record?.id ?? null]));
    const immediate = vi.fn();
    store.onChange(immediate, true);
    expect(immediate).toHaveBeenCalledWith('', null);
    store.save('t1', alice);
    stop();
    store.clear();
    expect(seen).toEqual([['t1', alice.id]]);
    expect(immediate).toHaveBeenCalledTimes(3);
  });
});

/** A Storage in memory, and the window of a browser that has it. */
function fakeBrowser() {
  const items = new Map<string, string>();
  const storage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, String(value)),
    removeItem: (key: string) => void items.delete(key),
  };
  const listeners: Array<(event: { key: string | null }) => void> = [];
  vi.stubGlobal('window', { localStorage: storage, addEventListener: (_: string, listener: (event: { key: string | null }) => void) => listeners.push(listener) });
  /** Another tab writes the key (localStorage changes, then this tab gets a storage event). */
  const otherTab = (value: string | null) => {
    if (value === null) items.delete(authStorageKey);
    else items.set(authStorageKey, value);
    for (const listener of listeners) listener({ key: authStorageKey });
  };
  return { items, otherTab };
}

describe('LocalAuthStore', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("keeps {token, record} as JSON under the SDK's key 'pocketbase_auth'", () => {
    const { items } = fakeBrowser();
    const token = jwt({ id: alice.id, exp: now() + 3600 });
    new LocalAuthStore().save(token, alice);
    expect(authStorageKey).toBe('pocketbase_auth');
    expect(JSON.parse(items.get('pocketbase_auth') ?? '')).toEqual({ token, record: alice });
    const reopened = new LocalAuthStore();
    expect([reopened.token, reopened.record, reopened.isValid]).toEqual([token, alice, true]);
    reopened.clear();
    expect(items.has('pocketbase_auth')).toBe(false);
    expect(new LocalAuthStore().token).toBe('');
  });

  it('reads a session the pocketbase SDK stored, including the pre-0.23 `model` shape', () => {
    const { items } = fakeBrowser();
    const token = jwt({ id: alice.id, exp: now() + 3600 });
    // What the SDK's LocalAuthStore.save writes: JSON.stringify({ token, record }).
    items.set('pocketbase_auth', JSON.stringify({ token, record: alice }));
    expect(new LocalAuthStore().record).toEqual(alice);
    items.set('pocketbase_auth', JSON.stringify({ token, model: alice }));
    expect([new LocalAuthStore().token, new LocalAuthStore().record]).toEqual([token, alice]);
    items.set('pocketbase_auth', 'not json');
    expect([new LocalAuthStore().token, new LocalAuthStore().record]).toEqual(['', null]);
  });

  it('follows a sign-in and a sign-out in another tab', () => {
    const { otherTab } = fakeBrowser();
    const store = new LocalAuthStore();
    const seen: string[] = [];
    store.onChange((token) => seen.push(token));
    const token = jwt({ id: alice.id, exp: now() + 3600 });
    otherTab(JSON.stringify({ token, record: alice }));
    expect([store.token, store.record]).toEqual([token, alice]);
    otherTab(null);
    expect([store.token, store.record]).toEqual(['', null]);
    expect(seen).toEqual([token, '']);
  });

  it('uses another key when given one', () => {
    const { items } = fakeBrowser();
    new LocalAuthStore('other_key').save('t', alice);
    expect([items.has('other_key'), items.has('pocketbase_auth')]).toEqual([true, false]);
  });

  it('keeps the session in memory without localStorage', () => {
    const store = new LocalAuthStore();
    store.save('t', alice);
    expect([store.token, store.record]).toEqual(['t', alice]);
    store.clear();
    expect(store.token).toBe('');
  });
});
