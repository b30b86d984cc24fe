import { createHmac, timingSafeEqual } from 'node:crypto';
import { ConfabServerError } from '../../errors';
import type { FileRow } from '../../store/repositories/files';
import type { UserRow } from '../../store/repositories/users';
import type { AccountsService } from '../accounts';
import { collectionIds } from '../collections/types';
import type { RequestAuth, ServiceContext } from '../context';
import { signingKey } from '../tokens';
import { fileKey } from './fileStore';

/**
 * A live-website capability lasts 1 hour; the chat opens a fresh one each time. It stands in a
 * URL the site's own scripts can read (and send anywhere), so it must not outlive a visit by much.
 */
const capabilityLifetimeSeconds = 60 * 60;
const recordIdPattern = /^[a-z0-9]{15}$/;

export interface ServableFile {
  row: FileRow;
  /** Where its bytes are in the file store. */
  key: string;
}

/**
 * Who may read which stored bytes: downloads (`/api/files/…`) for chat participants, by auth
 * header or file token, and the chat's live website behind a signed per-user capability.
 * Every refusal is the same 404, so nothing tells whether a file exists.
 */
export class FileAccessService {
  constructor(
    private readonly context: ServiceContext,
    private readonly accounts: AccountsService,
  ) {}

  private nowSeconds(): number {
    return Math.floor(this.context.config.now().getTime() / 1000);
  }

  fileToken(auth: RequestAuth): { token: string } {
    if (auth.user === undefined) throw new ConfabServerError('unauthorized', 'Missing or invalid authentication.');
    return { token: this.accounts.issueFileToken(auth.user) };
  }

  /** The caller (auth header) or the holder of a valid file token. */
  private async reader(auth: RequestAuth, fileToken: string | undefined): Promise<UserRow | undefined> {
    if (auth.user !== undefined) return auth.user;
    if (fileToken === undefined || fileToken === '') return undefined;
    return this.accounts.authenticateFileToken(fileToken);
  }

  private async participantFile(user: UserRow | undefined, row: FileRow | undefined): Promise<ServableFile> {
    if (user === undefined || row === undefined) throw new ConfabServerError('notFound');
    if (!(await this.context.store.chats.isParticipant(row.chat, user.id))) throw new ConfabServerError('notFound');
    const key = fileKey(row.chat, row.id, row.file);
    if ((await this.context.files.head(key)) === undefined) throw new ConfabServerError('notFound');
    return { row, key };
  }

  /** `/api/files/{collection}/{record}/{filename}`: the file, for a participant of its chat. */
  async download(auth: RequestAuth, fileToken: string | undefined, collection: string, recordId: string, fileName: string): Promise<ServableFile> {
    if (collection !== 'files' && collection !== collectionIds.files) throw new ConfabServerError('notFound');
    if (!recordIdPattern.test(recordId)) throw new ConfabServerError('notFound');
    const row = await this.context.store.files.findById(recordId);
    if (row !== undefined && row.file !== fileName) throw new ConfabServerError('notFound');
    return this.participantFile(await this.reader(auth, fileToken), row);
  }

  // ---- the chat's live website ----

  private capabilitySignature(user: UserRow, chatId: string, expires: number): Buffer {
    const key = signingKey(this.context.config.secret, user.token_key);
    return createHmac('sha256', key).update(`live-site:${chatId}:${user.id}:${expires}`).digest();
  }

  /** A participant's file token becomes a capability for this chat's site (a path segment). */
  async openLiveSite(chatId: string, fileToken: string | undefined): Promise<string> {
    const user = await this.reader({ user: undefined, ip: '' }, fileToken);
    if (user === undefined || !recordIdPattern.test(chatId)) throw new ConfabServerError('notFound');
    if (!(await this.context.store.chats.isParticipant(chatId, user.id))) throw new ConfabServerError('notFound');
    const expires = this.nowSeconds() + capabilityLifetimeSeconds;
    return `~${user.id}.${expires}.${this.capabilitySignature(user, chatId, expires).toString('base64url')}`;
  }

  /**
   * The file behind `/live/{chat}/~{capability}/{name}` ('' is index.html), or a 404. Only files
   * people uploaded make the site: a stranger's mail to the chat's address never does.
   */
  async liveSiteFile(chatId: string, capability: string, name: string): Promise<ServableFile> {
    const match = /^~([a-z0-9]{15})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(capability);
    if (match === null || !recordIdPattern.test(chatId)) throw new ConfabServerError('notFound');
    const [, userId = '', expiresText = '', signatureText = ''] = match;
    const expires = Number(expiresText);
    if (expires <= this.nowSeconds()) throw new ConfabServerError('notFound');
    const user = await this.context.store.users.findById(userId);
    if (user === undefined) throw new ConfabServerError('notFound');
    const expected = this.capabilitySignature(user, chatId, expires);
    const given = Buffer.from(signatureText, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new ConfabServerError('notFound');
    const fileName = name === '' ? 'index.html' : name;
    if (fileName.includes('/') || fileName.includes('\\')) throw new ConfabServerError('notFound');
    const row = await this.context.store.files.findNewestUploadedByPerson(chatId, fileName);
    return this.participantFile(user, row);
  }
}
