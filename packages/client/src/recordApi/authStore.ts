/** A record as the record API answers it: its id, its collection, and its fields. */
export interface RecordModel {
  [field: string]: unknown;
  id: string;
  collectionId: string;
  collectionName: string;
  expand?: Record<string, unknown>;
}

/** The signed-in record, or null. */
export type AuthRecord = RecordModel | null;

export type AuthChangeListener = (token: string, record: AuthRecord) => void;

/**
 * Where the session (auth token and signed-in record) lives. The same shape as the pocketbase
 * SDK's BaseAuthStore, so an SDK BaseAuthStore or LocalAuthStore instance is accepted too.
 */
export interface AuthStore {
  readonly token: string;
  readonly record: AuthRecord;
  /** A token is present and not expired (its JWT `exp` is in the future; a token without `exp` counts as valid). */
  readonly isValid: boolean;
  save(token: string, record?: AuthRecord): void;
  clear(): void;
  /** Calls `listener` after every save and clear (and at once with `fireImmediately`); returns the unsubscribe. */
  onChange(listener: AuthChangeListener, fireImmediately?: boolean): () => void;
}

/**
 * The session in memory, for the life of the object: Node scripts, tests, and browsers without a
 * usable localStorage. The SDK's BaseAuthStore semantics.
 *
 * @example
 * const store = new MemoryAuthStore();
 * store.onChange((token) => console.log(token === '' ? 'signed out' : 'signed in'));
 * store.save(token, record);
 */
export class MemoryAuthStore implements AuthStore {
  private savedToken = '';
  private savedRecord: AuthRecord = null;
  private readonly listeners: AuthChangeListener[] = [];

  get token(): string {
    return this.savedToken;
  }

  get record(): AuthRecord {
    return this.savedRecord;
  }

  get isValid(): boolean {
    return isTokenValid(this.token);
  }

  save(token: string, record?: AuthRecord): void {
    this.keep(token, record);
  }

  clear(): void {
    this.keep('', null);
  }

  onChange(listener: AuthChangeListener, fireImmediately = false): () => void {
    this.listeners.push(listener);
    if (fireImmediately) listener(this.token, this.record);
    return () => {
      const index = this.listeners.lastIndexOf(listener);
      if (index !== -1) this.listeners.splice(index, 1);
    };
  }

  /** Holds the session in memory and tells the listeners (what save and clear share, not overridable). */
  private keep(token: string, record?: AuthRecord): void {
    this.savedToken = token || '';
    this.savedRecord = record || null;
    for (const listener of [...this.listeners]) listener(this.token, this.record);
  }
}

/** The localStorage key (and JSON shape `{token, record}`) of the pocketbase SDK's LocalAuthStore. */
export const authStorageKey = 'pocketbase_auth';

/**
 * The session in localStorage under the SDK's LocalAuthStore key and shape, so sessions saved by
 * earlier versions (which used the SDK) are still signed in, and a sign-in or sign-out in another
 * tab reaches this one (the `storage` event). Without localStorage it keeps the session in memory.
 *
 * @example
 * const client = new ConfabClient({ authStore: new LocalAuthStore() });
 */
export class LocalAuthStore extends MemoryAuthStore {
  constructor(private readonly storageKey = authStorageKey) {
    super();
    const storage = localStorageOrNull();
    if (storage !== null && typeof window.addEventListener === 'function') {
      window.addEventListener('storage', (event) => {
        if (event.key !== this.storageKey) return;
        const stored = this.stored();
        // The other tab already wrote storage: only memory and the listeners follow.
        super.save(stored?.token ?? '', stored?.record ?? null);
      });
    }
  }

  override get token(): string {
    const stored = this.stored();
    return stored === undefined ? super.token : stored?.token ?? '';
  }

  override get record(): AuthRecord {
    const stored = this.stored();
    return stored === undefined ? super.record : stored?.record ?? null;
  }

  override save(token: string, record?: AuthRecord): void {
    localStorageOrNull()?.setItem(this.storageKey, JSON.stringify({ token, record }));
    super.save(token, record);
  }

  override clear(): void {
    localStorageOrNull()?.removeItem(this.storageKey);
    super.clear();
  }

  /** The stored session; null when nothing (or no JSON object) is stored; undefined without localStorage. */
  private stored(): { token: string; record: AuthRecord } | null | undefined {
    const storage = localStorageOrNull();
    if (storage === null) return undefined;
    try {
      const data: unknown = JSON.parse(storage.getItem(this.storageKey) ?? '');
      if (typeof data !== 'object' || data === null) return null;
      const { token, record, model } = data as { token?: unknown; record?: unknown; model?: unknown };
      // `model`: what SDK versions before 0.23 called the record.
      const saved = record || model;
      return { token: typeof token === 'string' ? token : '', record: typeof saved === 'object' && saved !== null ? (saved as RecordModel) : null };
    } catch {
      return null;
    }
  }
}

function localStorageOrNull(): Storage | null {
  return typeof window !== 'undefined' && window.localStorage ? window.localStorage : null;
}

/**
 * The SDK's (loose) validity check: the token's payload decodes and its `exp`, when there is one,
 * is in the future. The signature is the server's business.
 */
export function isTokenValid(token: string): boolean {
  const payload = tokenPayload(token);
  if (payload === null) return false;
  const expires = payload['exp'];
  return !expires || Number(expires) > Date.now() / 1000;
}

/** The JSON payload of a JWT, or null when there is none that decodes to a non-empty object. */
export function tokenPayload(token: string): Record<string, unknown> | null {
  const encoded = token.split('.')[1];
  if (!encoded) return null;
  try {
    const binary = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
    const payload: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0))));
    return typeof payload === 'object' && payload !== null && Object.keys(payload).length > 0 ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
