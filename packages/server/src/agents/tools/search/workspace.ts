import type { ConfabDatabase } from '../../../store/database';
import { newRecordId, formatTimestamp } from '../../../store/ids';
import { WorkspaceSearchRepository } from '../../../store/repositories/workspaceSearch';
import { fileKey, type FileStore } from '../../../services/files/fileStore';
import { plainText, type SearchHit } from './types';

/** A drop or file of the chat that matched. */
export interface WorkspaceHit extends SearchHit {
  kind: 'drop' | 'file';
  score: number;
}

/** Files whose bytes are text worth indexing; other files are found by name and description only. */
const textExtensions = new Set(['txt', 'md', 'csv', 'json', 'log']);
const markupExtensions = new Set(['html', 'htm', 'xml']);
/** At most this much of a file is read and indexed. */
const maxIndexedBytes = 512 * 1024;

/** The first `maxBytes` of a stored file (fewer when it is shorter), read as a range of the store. */
async function readStart(files: FileStore, key: string, maxBytes: number): Promise<Buffer> {
  const body = await files.get(key, { start: 0, end: maxBytes - 1 });
  if (body === undefined) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    length += chunk.length;
    if (length >= maxBytes) break;
  }
  body.destroy();
  return Buffer.concat(chunks).subarray(0, maxBytes);
}

/** The indexable text of an uploaded file ('' for binary formats, missing or unreadable files). */
export async function fileText(files: FileStore, key: string, originalName: string): Promise<string> {
  const extension = originalName.toLowerCase().split('.').pop() ?? '';
  if (!textExtensions.has(extension) && !markupExtensions.has(extension)) return '';
  let text: string;
  try {
    text = (await readStart(files, key, maxIndexedBytes)).toString('utf8');
  } catch {
    return '';
  }
  text = text.replace(/\u0000/g, '');
  if (markupExtensions.has(extension)) text = plainText(text.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<!--[\s\S]*?-->/g, ' '));
  return text;
}

export interface WorkspaceSearchOptions {
  /** Where the chat files' bytes are (the server's file store). */
  files: FileStore;
  /** The server's public base URL: results link under it. */
  publicUrl: () => string;
  now: () => Date;
}

/**
 * Search over a chat's drops and uploaded files. Indexing is lazy: each search first
 * adds the chat's drops and files that have no index row yet (drops and files never change after
 * they are made; deleting one deletes its row through the foreign key), then asks the full-text
 * index (FTS5 or tsvector, store/repositories/workspaceSearch.ts).
 */
export class WorkspaceSearch {
  private readonly repository: WorkspaceSearchRepository;
  /** One indexing pass per chat at a time: @deep searches its queries in parallel. */
  private readonly indexing = new Map<string, Promise<void>>();

  constructor(
    database: ConfabDatabase,
    private readonly options: WorkspaceSearchOptions,
  ) {
    this.repository = new WorkspaceSearchRepository(database);
  }

  async indexChat(chatId: string): Promise<void> {
    const running = this.indexing.get(chatId);
    if (running !== undefined) return running;
    const pass = this.indexMissing(chatId).finally(() => this.indexing.delete(chatId));
    this.indexing.set(chatId, pass);
    return pass;
  }

  private async indexMissing(chatId: string): Promise<void> {
    const created = formatTimestamp(this.options.now());
    for (const drop of await this.repository.unindexedDrops(chatId)) {
      await this.repository.insert({ id: newRecordId(), chat: chatId, drop_id: drop.id, file_id: null, kind: 'drop', title: drop.title, body: drop.content, link: `/drops/${encodeURIComponent(drop.slug)}`, created });
    }
    for (const file of await this.repository.unindexedFiles(chatId)) {
      let body = '';
      try {
        body = await fileText(this.options.files, fileKey(file.chat, file.id, file.file), file.original_name);
      } catch {
        body = '';
      }
      if (file.description.trim() !== '') body = `${file.description.trim()}\n\n${body}`;
      await this.repository.insert({ id: newRecordId(), chat: chatId, drop_id: null, file_id: file.id, kind: 'file', title: file.original_name, body, link: `/chat/${encodeURIComponent(chatId)}?file=${file.id}`, created });
    }
  }

  /**
   * The chat's best matches for `query`, as links under the public URL: a drop's page, or the
   * chat for a file (its download needs a file token the link cannot carry).
   */
  async search(chatId: string, query: string, limit = 8): Promise<WorkspaceHit[]> {
    await this.indexChat(chatId);
    const base = this.options.publicUrl().replace(/\/+$/, '');
    const matches = await this.repository.searchWorkspace(chatId, query, limit);
    return matches.map((match) => ({ kind: match.kind, title: match.kind === 'drop' ? match.title : `File: ${match.title}`, url: `${base}${match.link}`, snippet: match.snippet, score: match.score }));
  }
}
