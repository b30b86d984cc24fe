import type PocketBase from 'pocketbase';
import { constants } from '../constants';
import { ConfabError, toConfabError } from '../errors';
import type { UserRecord } from '../types';
import { messages } from '../validation/messages';
import { validateUpload } from '../validation/upload';
import type { ChatFile } from './chatFile';
import type { UploadTransport } from './uploadTransport';

const filesCollection = 'files';
/** A file token is valid this long after the server issues it (docs/CONTRACTS.md, Files). */
export const fileTokenLifetimeMs = 180_000;
/** A cached file token is replaced this long before it expires, so a link never carries a dying one. */
export const fileTokenRefreshMarginMs = 30_000;

export interface FilesServiceDependencies {
  pb: PocketBase;
  /** JSON product-endpoint calls with the session's bearer token (ConfabClient.request). */
  request: <Result>(path: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }) => Promise<Result>;
  fetch: typeof fetch;
  baseUrl: () => string;
  currentUser: () => UserRecord;
  /**
   * The XMLHttpRequest constructor uploads use for progress events, or null to upload with
   * `fetch`. Asked at each upload, so a test or polyfill installed later is seen.
   */
  xmlHttpRequest: () => typeof XMLHttpRequest | null;
  /** The clock of the file-token cache; Date.now by default. */
  now?: () => number;
  /**
   * The image extensions the server added to its upload allow-list (its config's
   * `upload_extensions`); none when absent. Asked at each upload.
   */
  addedUploadExtensions?: () => Promise<readonly string[]>;
}

export interface UploadOptions {
  /** Free text stored with the file (at most 1,000 characters on the server). */
  description?: string | undefined;
  /** Integer percentages 0–100 as the body is sent; always ends with 100 on success. */
  onProgress?: ((percent: number) => void) | undefined;
  signal?: AbortSignal | undefined;
}

export interface FileUrlOptions {
  /** Ask the server for `Content-Disposition: attachment` (`?download=1`). */
  download?: boolean | undefined;
  /** A file token from fileToken(): links and media elements cannot send the Authorization header. */
  token?: string | undefined;
}

export interface RemoveManyResult {
  deleted: string[];
  failed: Array<{ id: string; status: number }>;
}

/**
 * The files of a chat (docs/PRODUCT.md §4 Files panel, §5 Upload, §7 files; docs/CONTRACTS.md,
 * Files): list, upload with progress, delete, and the links that open or download a file. Every
 * failure rejects with a ConfabError.
 *
 * @example
 * const file = await client.files.upload(chatId, pickedFile, { onProgress: (percent) => console.log(`${percent}%`) });
 * const token = await client.files.fileToken();
 * anchor.href = client.files.fileUrl(file, { download: true, token });
 */
export class FilesService {
  private cachedToken: { value: string; session: string; expiresAt: number } | null = null;
  private pendingToken: { promise: Promise<string>; session: string } | null = null;

  constructor(private readonly dependencies: FilesServiceDependencies) {}

  /** The chat's files, newest first, with the uploader expanded; at most 100 (docs/PRODUCT.md §9). */
  async list(chatId: string): Promise<ChatFile[]> {
    const { pb } = this.dependencies;
    try {
      const page = await pb.collection(filesCollection).getList<ChatFile>(1, constants.filesPanel.fetchLimit, {
        filter: pb.filter('chat = {:chatId}', { chatId }),
        expand: 'uploaded_by',
        sort: '-created',
      });
      return page.items;
    } catch (error) {
      throw toConfabError(error);
    }
  }

  /**
   * Uploads one file to the chat as multipart/form-data (`file`, `chat`, `uploaded_by`,
   * `description`). It is checked first with validateUpload: an unsupported extension or more
   * than 100 MB rejects with that exact text and sends nothing. A refused upload rejects with the
   * server's message.
   */
  async upload(chatId: string, file: Blob & { name: string }, options: UploadOptions = {}): Promise<ChatFile> {
    const problem = validateUpload(file, (await this.dependencies.addedUploadExtensions?.()) ?? []);
    if (problem !== null) throw new ConfabError(problem, 400);
    const user = this.dependencies.currentUser();
    const body = new FormData();
    body.append('file', file, file.name);
    body.append('chat', chatId);
    // The server always records the caller; sending it keeps the record API's create shape.
    body.append('uploaded_by', user.id);
    const description = options.description?.trim() ?? '';
    if (description !== '') body.append('description', description);

    const answer = await (await this.transport())({
      url: `${this.dependencies.baseUrl()}/api/collections/${filesCollection}/records`,
      headers: this.authHeaders(),
      body,
      ...(options.signal ? { signal: options.signal } : {}),
      onProgress: progressReporter(options.onProgress),
    });
    if (!isChatFile(answer)) throw new ConfabError('The server did not answer with the uploaded file.', 0, { data: answer });
    return answer;
  }

  /**
   * Deletes a file; only its uploader may (docs/PRODUCT.md §6). The server answers 404 to anyone
   * else, which rejects with status 404 and the permission text of docs/PRODUCT.md §8.
   */
  async remove(fileId: string): Promise<void> {
    try {
      await this.dependencies.pb.collection(filesCollection).delete(fileId);
    } catch (error) {
      const failure = toConfabError(error);
      if (failure.status === 404) {
        throw new ConfabError(messages.deleteFileNotPermitted, 404, { data: failure.data, cause: failure });
      }
      throw failure;
    }
  }

  /** Deletes every file it can; never rejects. `failed` keeps each refusal's status (0: no answer). */
  async removeMany(fileIds: string[]): Promise<RemoveManyResult> {
    const ids = [...new Set(fileIds)];
    const outcomes = await Promise.allSettled(ids.map((id) => this.remove(id)));
    const result: RemoveManyResult = { deleted: [], failed: [] };
    outcomes.forEach((outcome, index) => {
      const id = ids[index] ?? '';
      if (outcome.status === 'fulfilled') result.deleted.push(id);
      else result.failed.push({ id, status: toConfabError(outcome.reason).status });
    });
    return result;
  }

  /**
   * A short-lived token (180 s) that lets links and `<audio>` fetch files without the
   * Authorization header. Cached for the session until 30 s before it expires; concurrent
   * callers share one request.
   */
  fileToken(): Promise<string> {
    const session = this.dependencies.pb.authStore.token;
    const now = this.now();
    const cached = this.cachedToken;
    if (cached !== null && cached.session === session && now < cached.expiresAt - fileTokenRefreshMarginMs) {
      return Promise.resolve(cached.value);
    }
    if (this.pendingToken !== null && this.pendingToken.session === session) return this.pendingToken.promise;

    // Counted from before the request, so the cached expiry is never later than the server's.
    const requestedAt = now;
    const promise = this.dependencies
      .request<{ token?: unknown } | undefined>('/api/files/token', { method: 'POST' })
      .then((answer) => {
        const value = answer?.token;
        if (typeof value !== 'string' || value === '') throw new ConfabError('The server gave no file token.', 0, { data: answer });
        this.cachedToken = { value, session, expiresAt: requestedAt + fileTokenLifetimeMs };
        return value;
      })
      .finally(() => {
        if (this.pendingToken?.promise === promise) this.pendingToken = null;
      });
    this.pendingToken = { promise, session };
    return promise;
  }

  /** `GET /api/files/files/{id}/{stored name}`, with `?token=` and `?download=1` when asked. */
  fileUrl(file: Pick<ChatFile, 'id' | 'file'>, options: FileUrlOptions = {}): string {
    const path = `${this.dependencies.baseUrl()}/api/files/${filesCollection}/${encodeURIComponent(file.id)}/${encodeURIComponent(file.file)}`;
    const query = new URLSearchParams();
    if (options.token !== undefined && options.token !== '') query.set('token', options.token);
    if (options.download === true) query.set('download', '1');
    const search = query.toString();
    return search === '' ? path : `${path}?${search}`;
  }

  /** The chat's live website (its uploaded index.html and friends), opened with a file token. */
  liveSiteUrl(chatId: string, token: string): string {
    return `${this.dependencies.baseUrl()}/live/${encodeURIComponent(chatId)}/?token=${encodeURIComponent(token)}`;
  }

  /** The upload code loads with the first upload: most visits never upload (apps/reference/routeBudgets.json). */
  private async transport(): Promise<UploadTransport> {
    const { fetchUploadTransport, xhrUploadTransport } = await import('./uploadTransport');
    const XMLHttpRequestClass = this.dependencies.xmlHttpRequest();
    return XMLHttpRequestClass === null ? fetchUploadTransport(this.dependencies.fetch) : xhrUploadTransport(XMLHttpRequestClass);
  }

  private authHeaders(): Record<string, string> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = this.dependencies.pb.authStore.token;
    if (token !== '') headers['Authorization'] = `Bearer ${token}`;
    return headers;
  }

  private now(): number {
    return (this.dependencies.now ?? Date.now)();
  }
}

/** Rounds to whole percents within 0–100 and reports each value once, never going backwards. */
function progressReporter(onProgress: ((percent: number) => void) | undefined): (percent: number) => void {
  let last = -1;
  return (percent) => {
    const value = Math.min(100, Math.max(0, Math.floor(percent)));
    if (value <= last) return;
    last = value;
    onProgress?.(value);
  };
}

function isChatFile(value: unknown): value is ChatFile {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string';
}
