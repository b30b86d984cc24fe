import { MemoryAuthStore } from './authStore';
import type { AuthStore, RecordModel } from './authStore';
import { filter } from './filter';
import { ResponseError } from './ResponseError';

/**
 * Options of one request, as the pocketbase SDK takes them: fetch's own options (method, headers,
 * signal, …), a `body` (a plain object goes as JSON, or as multipart when it holds a File/Blob; a
 * FormData as is), `query` params, and any other key becomes a query param too (`expand`, `sort`…).
 */
export interface SendOptions {
  [queryParam: string]: unknown;
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  query?: Record<string, unknown>;
  signal?: AbortSignal | null;
  /** This request's fetch, instead of the RecordApi's. */
  fetch?: typeof fetch;
  /** Accepted for SDK compatibility and ignored: requests are never cancelled automatically. */
  requestKey?: string | null;
}

export interface RecordOptions extends SendOptions {
  /** Comma list of relation paths to expand, e.g. `author,chat.participants`. */
  expand?: string;
  /** Comma list of the fields to answer with. */
  fields?: string;
}

export interface ListOptions extends RecordOptions {
  sort?: string;
  filter?: string;
  /** No count query: `totalItems` and `totalPages` answer -1. */
  skipTotal?: boolean;
}

export interface FullListOptions extends ListOptions {
  /** Records per request; 1000 by default. */
  batch?: number;
}

export interface ListResult<T> {
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
  items: T[];
}

export interface RecordAuthResponse<T = RecordModel> {
  token: string;
  record: T;
  meta?: Record<string, unknown>;
}

export interface RecordApiOptions {
  /** Used for every request; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** The Accept-Language header. */
  lang?: string;
}

/** fetch's own option names; every other unknown option key becomes a query param (the SDK's list). */
const requestInitKeys = new Set(['cache', 'credentials', 'headers', 'integrity', 'keepalive', 'method', 'mode', 'redirect', 'referrer', 'referrerPolicy', 'signal', 'window']);
const nonQueryKeys = new Set(['requestKey', '$cancelKey', '$autoCancel', 'fetch', 'body', 'query', 'params']);

/**
 * A small client for the PocketBase record API wire format (shared/reference/pocketbase-wire.md),
 * speaking it like the official pocketbase SDK does (same requests, same auth store semantics,
 * ResponseError with the SDK error's fields) for the calls Confab makes: record CRUD and lists,
 * password auth and refresh, password reset, `filter`, and `send` for any other route.
 * Requests are never cancelled automatically; pass a `signal` to cancel one.
 *
 * @example
 * const api = new RecordApi('http://127.0.0.1:8090');
 * await api.collection('users').authWithPassword('alice', 'secret');
 * const page = await api.collection('messages').getList(1, 50, { filter: api.filter('chat = {:id}', { id }), sort: '-seq' });
 */
export class RecordApi {
  readonly baseUrl: string;
  readonly authStore: AuthStore;
  lang: string;
  private readonly fetchFunction: typeof fetch | undefined;

  constructor(baseUrl = '/', authStore: AuthStore = new MemoryAuthStore(), options: RecordApiOptions = {}) {
    this.baseUrl = baseUrl;
    this.authStore = authStore;
    this.lang = options.lang ?? 'en-US';
    this.fetchFunction = options.fetch;
  }

  /** The records of one collection (by name or id). */
  collection<M = RecordModel>(name: string): RecordCollection<M> {
    return new RecordCollection<M>(this, name);
  }

  /** `{:name}` placeholders filled with quoted values, as the SDK's pb.filter (see ./filter). */
  filter(expression: string, params?: Record<string, unknown>): string {
    return filter(expression, params);
  }

  /** The absolute URL of `path`; a relative base URL is resolved against the page's location. */
  buildURL(path = ''): string {
    let url = this.baseUrl;
    const location = typeof window !== 'undefined' ? window.location : undefined;
    if (location && !url.startsWith('https://') && !url.startsWith('http://')) {
      url = (location.origin ?? '').replace(/\/$/, '');
      if (!this.baseUrl.startsWith('/')) url += withTrailingSlash(location.pathname || '/');
      url += this.baseUrl;
    }
    if (path) url = withTrailingSlash(url) + (path.startsWith('/') ? path.slice(1) : path);
    return url;
  }

  /**
   * One request: resolves with the JSON body (`{}` when there is none, e.g. 204), rejects with a
   * ResponseError for status >= 400 (status and body), a network failure (status 0) or an abort
   * (`isAbort`). Sends the auth token as `Authorization: <token>`, like the SDK.
   */
  async send<T = unknown>(path: string, options: SendOptions = {}): Promise<T> {
    const query: Record<string, unknown> = { ...(options['params'] as Record<string, unknown> | undefined), ...options.query };
    const init: Record<string, unknown> = { method: 'GET' };
    for (const [key, value] of Object.entries(options)) {
      if (requestInitKeys.has(key)) init[key] = value;
      else if (!nonQueryKeys.has(key)) query[key] = value;
    }
    const headers: Record<string, string> = { ...options.headers };
    let body = toFormDataIfNeeded(options.body);
    if (headerValue(headers, 'Content-Type') === null && !isFormData(body)) headers['Content-Type'] = 'application/json';
    if (headerValue(headers, 'Accept-Language') === null) headers['Accept-Language'] = this.lang;
    if (this.authStore.token && headerValue(headers, 'Authorization') === null) headers['Authorization'] = this.authStore.token;
    if (headerValue(headers, 'Content-Type') === 'application/json' && body && typeof body !== 'string') body = JSON.stringify(body);

    let url = this.buildURL(path);
    const search = queryString(query);
    if (search) url += (url.includes('?') ? '&' : '?') + search;
    const fetchFunction = options.fetch ?? this.fetchFunction ?? fetch;
    let response: Response;
    try {
      response = await fetchFunction(url, { ...init, headers, body: body as BodyInit | undefined } as RequestInit);
    } catch (error) {
      throw new ResponseError(error);
    }
    let data: unknown = {};
    try {
      data = await response.json();
    } catch (error) {
      // No JSON body (204, or not JSON) is `{}`; an abort while reading it is an abort.
      if (options.signal?.aborted || isAbortError(error)) throw new ResponseError({ isAbort: true, originalError: error });
    }
    if (response.status >= 400) throw new ResponseError({ url: response.url || url, status: response.status, data });
    return data as T;
  }
}

/**
 * The record routes of one collection (`/api/collections/{name}/…`), with the SDK RecordService's
 * method names, arguments and answers.
 */
export class RecordCollection<M = RecordModel> {
  constructor(
    private readonly api: RecordApi,
    readonly name: string,
  ) {}

  /** One page of records: `page` from 1, `perPage` records (30 by default). */
  async getList<T = M>(page = 1, perPage = 30, options: ListOptions = {}): Promise<ListResult<T>> {
    const list = await this.api.send<ListResult<T>>(this.path('records'), { method: 'GET', ...options, query: { page, perPage, ...options.query } });
    list.items = list.items ?? [];
    return list;
  }

  /**
   * Every record, fetched `batch` (default 1000) at a time with `skipTotal`, page after page until
   * a page holds fewer records than the `perPage` the server answered with.
   */
  async getFullList<T = M>(options?: FullListOptions): Promise<T[]>;
  async getFullList<T = M>(batch?: number, options?: ListOptions): Promise<T[]>;
  async getFullList<T = M>(batchOrOptions?: number | FullListOptions, listOptions?: ListOptions): Promise<T[]> {
    const { batch: batchOption, ...options }: FullListOptions =
      typeof batchOrOptions === 'number' ? { ...listOptions, batch: batchOrOptions } : { ...batchOrOptions, ...listOptions };
    const batch = batchOption || 1000;
    const query = { skipTotal: 1, ...options.query };
    const items: T[] = [];
    for (let page = 1; ; page++) {
      const list = await this.getList<T>(page, batch, { ...options, query });
      items.push(...list.items);
      if (list.items.length === 0 || list.items.length !== list.perPage) return items;
    }
  }

  async getOne<T = M>(id: string, options: RecordOptions = {}): Promise<T> {
    if (!id) {
      throw new ResponseError({
        url: this.api.buildURL(`${this.path('records')}/`),
        status: 404,
        response: { code: 404, message: 'Missing required record id.', data: {} },
      });
    }
    return this.api.send<T>(this.recordPath(id), { method: 'GET', ...options });
  }

  async create<T = M>(body?: Record<string, unknown> | FormData, options: RecordOptions = {}): Promise<T> {
    return this.api.send<T>(this.path('records'), { method: 'POST', body, ...options });
  }

  /** Updates a record; when it is the signed-in record, the auth store's copy takes the answer. */
  async update<T = M>(id: string, body?: Record<string, unknown> | FormData, options: RecordOptions = {}): Promise<T> {
    const item = await this.api.send<RecordModel>(this.recordPath(id), { method: 'PATCH', body, ...options });
    const { authStore } = this.api;
    const current = authStore.record;
    if (current !== null && current.id === item?.id && this.isCollectionOf(current)) {
      authStore.save(authStore.token, { ...current, ...item, expand: { ...current.expand, ...item.expand } });
    }
    return item as T;
  }

  /** Deletes a record; deleting the signed-in record signs out. */
  async delete(id: string, options: SendOptions = {}): Promise<boolean> {
    await this.api.send(this.recordPath(id), { method: 'DELETE', ...options });
    const current = this.api.authStore.record;
    if (current !== null && current.id === id && this.isCollectionOf(current)) this.api.authStore.clear();
    return true;
  }

  /** Signs in with a username or e-mail and password; the auth store keeps the session. */
  async authWithPassword<T = M>(identity: string, password: string, options: RecordOptions = {}): Promise<RecordAuthResponse<T>> {
    return this.authResponse<T>(await this.api.send(this.path('auth-with-password'), { method: 'POST', body: { identity, password }, ...options }));
  }

  /** A new token (and a fresh record) for the current session; the auth store keeps them. */
  async authRefresh<T = M>(options: RecordOptions = {}): Promise<RecordAuthResponse<T>> {
    return this.authResponse<T>(await this.api.send(this.path('auth-refresh'), { method: 'POST', ...options }));
  }

  async requestPasswordReset(email: string, options: SendOptions = {}): Promise<boolean> {
    await this.api.send(this.path('request-password-reset'), { method: 'POST', body: { email }, ...options });
    return true;
  }

  async confirmPasswordReset(token: string, password: string, passwordConfirm: string, options: SendOptions = {}): Promise<boolean> {
    await this.api.send(this.path('confirm-password-reset'), { method: 'POST', body: { token, password, passwordConfirm }, ...options });
    return true;
  }

  private authResponse<T>(data: unknown): RecordAuthResponse<T> {
    const answer = (data ?? {}) as { token?: string; record?: RecordModel };
    const record = answer.record ?? ({} as RecordModel);
    this.api.authStore.save(answer.token ?? '', record);
    return { ...answer, token: answer.token || '', record: record as T };
  }

  private isCollectionOf(record: RecordModel): boolean {
    return record.collectionId === this.name || record.collectionName === this.name;
  }

  private path(action: string): string {
    return `/api/collections/${encodeURIComponent(this.name)}/${action}`;
  }

  private recordPath(id: string): string {
    return `${this.path('records')}/${encodeURIComponent(id)}`;
  }
}

/**
 * The query string of `params`, as the SDK writes it: arrays repeat the key, null and undefined
 * are left out, Dates are written `YYYY-MM-DD HH:MM:SS.sssZ` and objects as JSON.
 */
export function queryString(params: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === null || item === undefined) continue;
      const text = item instanceof Date ? item.toISOString().replace('T', ' ') : typeof item === 'object' ? JSON.stringify(item) : String(item);
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
    }
  }
  return parts.join('&');
}

function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

function headerValue(headers: Record<string, string>, name: string): string | null {
  const wanted = name.toLowerCase();
  for (const key in headers) if (key.toLowerCase() === wanted) return headers[key] ?? null;
  return null;
}

function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && ((error as Error).name === 'AbortError' || (error as Error).message === 'Aborted');
}

function isFile(value: unknown): boolean {
  return typeof Blob !== 'undefined' && value instanceof Blob;
}

function isFormData(body: unknown): body is FormData {
  return typeof FormData !== 'undefined' && body instanceof FormData;
}

/**
 * A plain-object body holding a File/Blob becomes multipart, as in the SDK: files and plain values
 * as parts (arrays repeat the part), other objects in the `@jsonPayload` part, which the server
 * merges over the fields.
 */
function toFormDataIfNeeded(body: unknown): unknown {
  if (typeof FormData === 'undefined' || typeof body !== 'object' || body === null || isFormData(body)) return body;
  const entries = Object.entries(body);
  const holdsFile = (value: unknown) => (Array.isArray(value) ? value.some(isFile) : isFile(value));
  if (!entries.some(([, value]) => holdsFile(value))) return body;
  const form = new FormData();
  for (const [key, value] of entries) {
    if (value === undefined) continue;
    if (typeof value === 'object' && !holdsFile(value)) {
      form.append('@jsonPayload', JSON.stringify({ [key]: value }));
    } else {
      for (const item of Array.isArray(value) ? value : [value]) form.append(key, item instanceof Blob ? item : String(item));
    }
  }
  return form;
}
