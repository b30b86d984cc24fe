import { describe, expect, it } from 'vitest';
import { MemoryAuthStore } from './authStore';
import type { RecordModel } from './authStore';
import { RecordApi, queryString } from './RecordApi';
import { ResponseError } from './ResponseError';

interface SeenRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: BodyInit | null | undefined;
}

/** A RecordApi on http://api.test whose fetch records each request and answers with `answer`. */
function recordingApi(answer: (request: SeenRequest) => unknown = () => ({}), authStore = new MemoryAuthStore()) {
  const seen: SeenRequest[] = [];
  const api = new RecordApi('http://api.test', authStore, {
    fetch: async (input, init = {}) => {
      const request = { method: init.method ?? 'GET', url: new URL(String(input)), headers: new Headers(init.headers), body: init.body };
      seen.push(request);
      const body = answer(request);
      return body === null ? new Response(null, { status: 204 }) : Response.json(body);
    },
  });
  return { api, seen };
}

const alice: RecordModel = { id: 'alice0000000001', collectionId: '_pb_users_auth_', collectionName: 'users', username: 'alice', name: 'Alice' };

describe('queryString', () => {
  it('writes params as the SDK does', () => {
    expect(
      queryString({
        page: 2,
        skipTotal: true,
        filter: 'chat = "a b" && seq > 3',
        empty: '',
        none: null,
        missing: undefined,
        many: ['a', 'b'],
        when: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)),
        json: { a: 1 },
      }),
    ).toBe('page=2&skipTotal=true&filter=chat%20%3D%20%22a%20b%22%20%26%26%20seq%20%3E%203&empty=&many=a&many=b&when=2026-01-02%2003%3A04%3A05.006Z&json=%7B%22a%22%3A1%7D');
  });
});

describe('RecordApi requests', () => {
  it('lists with page, perPage and the list options as query params, in the SDK order', async () => {
    const { api, seen } = recordingApi(() => ({ page: 1, perPage: 51, totalItems: -1, totalPages: -1, items: [] }));
    await api.collection('messages').getList(1, 51, { filter: api.filter('chat = {:id}', { id: 'c1' }), sort: '-seq', expand: 'author', fields: 'id,seq', skipTotal: true, requestKey: null });
    const [request] = seen;
    expect(request?.method).toBe('GET');
    expect(request?.url.pathname).toBe('/api/collections/messages/records');
    expect([...(request?.url.searchParams ?? [])]).toEqual([
      ['page', '1'],
      ['perPage', '51'],
      ['filter', 'chat = "c1"'],
      ['sort', '-seq'],
      ['expand', 'author'],
      ['fields', 'id,seq'],
      ['skipTotal', 'true'],
    ]);
  });

  it('defaults a list to page 1 of 30 and always answers items', async () => {
    const { api, seen } = recordingApi(() => ({ page: 1, perPage: 30, totalItems: 0, totalPages: 0 }));
    expect((await api.collection('chats').getList()).items).toEqual([]);
    expect(seen[0]?.url.search).toBe('?page=1&perPage=30');
  });

  it('sends the raw token, the language and JSON like the SDK', async () => {
    const authStore = new MemoryAuthStore();
    const { api, seen } = recordingApi(() => alice, authStore);
    await api.collection('chats').getOne('c 1', { expand: 'participants' });
    expect(seen[0]?.headers.get('Authorization')).toBeNull();
    authStore.save('raw.jwt.token', alice);
    await api.collection('chats').create({ name: 'Team', participants: ['a'] });
    const [get, create] = seen;
    expect(get?.url.pathname + (get?.url.search ?? '')).toBe('/api/collections/chats/records/c%201?expand=participants');
    expect(create?.method).toBe('POST');
    expect(create?.headers.get('Authorization')).toBe('raw.jwt.token');
    expect(create?.headers.get('Content-Type')).toBe('application/json');
    expect(create?.headers.get('Accept-Language')).toBe('en-US');
    expect(create?.body).toBe('{"name":"Team","participants":["a"]}');
  });

  it('keeps headers the caller set, whatever their case', async () => {
    const { api, seen } = recordingApi();
    api.authStore.save('token-1', null);
    await api.send('/api/x', { method: 'POST', headers: { authorization: 'Bearer other', 'content-type': 'text/plain' }, body: 'raw text' });
    expect(seen[0]?.headers.get('Authorization')).toBe('Bearer other');
    expect(seen[0]?.headers.get('Content-Type')).toBe('text/plain');
    expect(seen[0]?.body).toBe('raw text');
  });

  it('sends a FormData as is, and a body holding a Blob as multipart with @jsonPayload', async () => {
    const { api, seen } = recordingApi(() => ({ id: 'f1' }));
    const form = new FormData();
    form.append('chat', 'c1');
    await api.collection('files').create(form);
    expect(seen[0]?.body).toBe(form);
    expect(seen[0]?.headers.get('Content-Type')).toBeNull();

    const file = new Blob(['hello'], { type: 'text/plain' });
    await api.collection('files').create({ file, chat: 'c1', count: 2, meta: { a: 1 }, skipped: undefined });
    const multipart = seen[1]?.body;
    expect(multipart).toBeInstanceOf(FormData);
    const parts = multipart as FormData;
    expect(parts.get('file')).toBeInstanceOf(Blob);
    expect([parts.get('chat'), parts.get('count'), parts.get('@jsonPayload'), parts.has('skipped')]).toEqual(['c1', '2', '{"meta":{"a":1}}', false]);
  });

  it('sends a product route with send(), unknown option keys as query params', async () => {
    const { api, seen } = recordingApi(() => null);
    expect(await api.send('/api/chats/c1/leave', { method: 'POST', query: { a: 1 }, b: 'two', requestKey: 'ignored' })).toEqual({});
    expect(seen[0]?.url.pathname + (seen[0]?.url.search ?? '')).toBe('/api/chats/c1/leave?a=1&b=two');
  });

  it('uses a per-request fetch over its own', async () => {
    const { api, seen } = recordingApi();
    const used: string[] = [];
    await api.send('/api/x', { fetch: async (input) => (used.push(String(input)), Response.json({ ok: true })) });
    expect([used, seen]).toEqual([['http://api.test/api/x'], []]);
  });

  it('builds URLs from the base URL', () => {
    expect(new RecordApi('http://api.test/').buildURL('/api/x')).toBe('http://api.test/api/x');
    expect(new RecordApi('http://api.test/sub').buildURL('api/x')).toBe('http://api.test/sub/api/x');
    expect(new RecordApi('http://api.test').buildURL('/').replace(/\/$/, '')).toBe('http://api.test');
  });

  it('rejects getOne without an id as a 404, without a request', async () => {
    const { api, seen } = recordingApi();
    const error = await api.collection('chats').getOne('').catch((caught: ResponseError) => caught);
    expect(error).toBeInstanceOf(ResponseError);
    expect([error.status, error.message, seen.length]).toEqual([404, 'Missing required record id.', 0]);
  });
});

describe('RecordCollection.getFullList', () => {
  /** A server holding `total` records that caps perPage at `cap`, like the wire contract says. */
  function pagingApi(total: number, cap = 1000) {
    return recordingApi((request) => {
      const page = Number(request.url.searchParams.get('page'));
      const perPage = Math.min(Number(request.url.searchParams.get('perPage')), cap);
      const ids = Array.from({ length: total }, (_, index) => ({ id: `r${index}` }));
      return { page, perPage, totalItems: -1, totalPages: -1, items: ids.slice((page - 1) * perPage, page * perPage) };
    });
  }

  it('pages `batch` records at a time with skipTotal until a short page', async () => {
    const { api, seen } = pagingApi(1050);
    const records = await api.collection('chats').getFullList<{ id: string }>({ batch: 500, sort: '-updated', expand: 'participants' });
    expect(records).toHaveLength(1050);
    expect(records.at(-1)?.id).toBe('r1049');
    expect(seen.map((request) => request.url.search)).toEqual([
      '?page=1&perPage=500&skipTotal=1&sort=-updated&expand=participants',
      '?page=2&perPage=500&skipTotal=1&sort=-updated&expand=participants',
      '?page=3&perPage=500&skipTotal=1&sort=-updated&expand=participants',
    ]);
  });

  it('asks 1000 at a time by default, takes the legacy (batch, options) form, and follows the perPage the server echoes', async () => {
    const { api, seen } = pagingApi(2000);
    expect(await api.collection('chats').getFullList()).toHaveLength(2000);
    expect(seen.map((request) => request.url.searchParams.get('perPage'))).toEqual(['1000', '1000', '1000']);

    const capped = pagingApi(250, 100);
    expect(await capped.api.collection('chats').getFullList(500, { sort: 'seq' })).toHaveLength(250);
    expect(capped.seen.map((request) => request.url.searchParams.get('page'))).toEqual(['1', '2', '3']);
  });

  it('answers [] for an empty collection after one request', async () => {
    const { api, seen } = pagingApi(0);
    expect(await api.collection('chats').getFullList()).toEqual([]);
    expect(seen).toHaveLength(1);
  });
});

describe('RecordCollection auth', () => {
  it('signs in with identity and password, keeping token and record in the auth store', async () => {
    const { api, seen } = recordingApi(() => ({ token: 'new-token', record: alice }));
    const answer = await api.collection('users').authWithPassword('alice', 'secret');
    expect(answer).toEqual({ token: 'new-token', record: alice });
    expect([api.authStore.token, api.authStore.record]).toEqual(['new-token', alice]);
    expect(seen[0]?.url.pathname).toBe('/api/collections/users/auth-with-password');
    expect(JSON.parse(String(seen[0]?.body))).toEqual({ identity: 'alice', password: 'secret' });

    await api.collection('users').authRefresh();
    expect(seen[1]?.method).toBe('POST');
    expect(seen[1]?.url.pathname).toBe('/api/collections/users/auth-refresh');
    expect(seen[1]?.headers.get('Authorization')).toBe('new-token');
  });

  it('requests and confirms a password reset', async () => {
    const { api, seen } = recordingApi(() => null);
    expect(await api.collection('users').requestPasswordReset('a@example.com')).toBe(true);
    expect(await api.collection('users').confirmPasswordReset('t', 'p1', 'p1')).toBe(true);
    expect(seen.map((request) => [request.url.pathname, JSON.parse(String(request.body))])).toEqual([
      ['/api/collections/users/request-password-reset', { email: 'a@example.com' }],
      ['/api/collections/users/confirm-password-reset', { token: 't', password: 'p1', passwordConfirm: 'p1' }],
    ]);
  });

  it('merges an update of the signed-in record into the auth store, and signs out when it is deleted', async () => {
    const { api, seen } = recordingApi((request) =>
      request.method === 'PATCH' ? { ...alice, id: request.url.pathname.split('/').at(-1), ...JSON.parse(String(request.body)) } : null,
    );
    api.authStore.save('token', { ...alice, expand: { team: { id: 't1' } } });
    const changes: string[] = [];
    api.authStore.onChange((_, record) => changes.push(String(record?.['name'] ?? '')));
    await api.collection('users').update(alice.id, { name: 'Alice B' });
    expect(seen[0]?.method).toBe('PATCH');
    expect(api.authStore.record).toEqual({ ...alice, name: 'Alice B', expand: { team: { id: 't1' } } });
    await api.collection('chats').update(alice.id, { name: 'not the user' });
    await api.collection('users').update('someone0000002', { name: 'x' });
    expect(changes).toEqual(['Alice B']);

    await api.collection('chats').delete(alice.id);
    expect(api.authStore.token).toBe('token');
    expect(await api.collection('users').delete(alice.id)).toBe(true);
    expect(seen.at(-1)?.method).toBe('DELETE');
    expect([api.authStore.token, api.authStore.record]).toEqual(['', null]);
  });
});
