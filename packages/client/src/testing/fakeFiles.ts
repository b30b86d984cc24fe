import type { ChatFile } from '../files/chatFile';
import { mimeFromExtension } from '../format/mime';
import type { ChatRecord } from '../types';
import { fileExtension, isAllowedUpload } from '../validation/upload';
import { messages } from '../validation/messages';
import { compareBy, list, newId, timestamp, withExpand } from './fakeRecords';
import type { Answer, RecordsRequest } from './fakeRecords';

/*
 * The files routes of the fake HTTP server (docs/CONTRACTS.md, Files): list, multipart create,
 * delete (uploader only, else 404) and POST /api/files/token.
 */

export interface FakeFilesState {
  records: ChatFile[];
  /** A delete of one of these ids answers with the given status instead (e.g. 500). */
  deleteFailures: Map<string, number>;
  /** Every token POST /api/files/token handed out, in order. */
  tokensIssued: string[];
}

/** A multipart file part as the fake server read it. */
export interface UploadedPart {
  name: string;
  size: number;
  type: string;
  text: string;
}

const notFound: Answer = { status: 404, body: { status: 404, message: "The requested resource wasn't found.", data: {} } };
const createFailed: Answer = { status: 400, body: { status: 400, message: 'Failed to create record.', data: {} } };

export function createFakeFilesState(): FakeFilesState {
  return { records: [], deleteFailures: new Map(), tokensIssued: [] };
}

export function routeFiles(files: FakeFilesState, chats: ChatRecord[], request: RecordsRequest): Answer | null {
  const url = new URL(request.path, 'http://fake');
  const isToken = url.pathname === '/api/files/token';
  const match = /^\/api\/collections\/files\/records(?:\/([^/]+))?$/.exec(url.pathname);
  if (!isToken && match === null) return null;
  const { userId } = request;
  if (userId === undefined) return { status: 401, body: { status: 401, message: 'The request requires valid record authorization token.', data: {} } };

  if (isToken) {
    if (request.method !== 'POST') return notFound;
    const token = `filetoken${files.tokensIssued.length + 1}`;
    files.tokensIssued.push(token);
    return { status: 200, body: { token } };
  }

  const id = match?.[1];
  const visibleChats = new Set(chats.filter((chat) => chat.participants.includes(userId)).map((chat) => chat.id));
  if (request.method === 'GET' && id === undefined) {
    const chatId = /^chat\s*=\s*(['"])(.*)\1$/.exec((url.searchParams.get('filter') ?? '').trim())?.[2];
    const items = files.records.filter((file) => visibleChats.has(file.chat) && (chatId === undefined || file.chat === chatId));
    const expand = (url.searchParams.get('expand') ?? '').split(',').filter((field) => field !== '');
    return list(url, items.sort(compareBy(url.searchParams.get('sort'))), (file) => withExpand(file, expand, request.userRecord));
  }
  if (request.method === 'POST' && id === undefined) return create(files, visibleChats, userId, request.body);
  if (request.method === 'DELETE' && id !== undefined) {
    const failure = files.deleteFailures.get(id);
    if (failure !== undefined) return { status: failure, body: { status: failure, message: 'Something went wrong while deleting.', data: {} } };
    const file = files.records.find((candidate) => candidate.id === id && visibleChats.has(candidate.chat));
    if (file === undefined || file.uploaded_by !== userId) return notFound;
    files.records = files.records.filter((candidate) => candidate !== file);
    return { status: 204 };
  }
  return notFound;
}

function create(files: FakeFilesState, visibleChats: Set<string>, userId: string, body: Record<string, unknown>): Answer {
  const part = body['file'] as UploadedPart | undefined;
  const chat = String(body['chat'] ?? '');
  if (part === undefined || typeof part !== 'object' || !visibleChats.has(chat)) return createFailed;
  if (!isAllowedUpload(part.name)) {
    const message = messages.unsupportedFileFormat(fileExtension(part.name) || part.name);
    return { status: 400, body: { status: 400, message, data: { file: { code: 'validation_invalid_file_type', message } } } };
  }
  const extension = fileExtension(part.name);
  if (extension === '.pdf' && !part.text.startsWith('%PDF')) {
    const message = 'The file content does not match its .pdf extension.';
    return { status: 400, body: { status: 400, message, data: { file: { code: 'validation_invalid_file_content', message } } } };
  }
  return { status: 200, body: addFileRecord(files, { chat, uploaded_by: userId, original_name: part.name, size: part.size, description: String(body['description'] ?? '') }) };
}

/** Stores a file record the way the server names it: `{snake_base}_{10 characters}{ext}`. */
export function addFileRecord(
  files: FakeFilesState,
  input: Partial<ChatFile> & { chat: string; uploaded_by: string; original_name: string },
): ChatFile {
  const extension = fileExtension(input.original_name);
  const base = input.original_name.slice(0, input.original_name.length - extension.length).toLowerCase().replace(/[^a-z0-9]+/g, '_');
  const created = timestamp();
  const record: ChatFile = {
    id: newId('file'),
    collectionId: 'files',
    collectionName: 'files',
    file: `${base}_${newId('').slice(-10)}${extension}`,
    size: 0,
    mime_type: mimeFromExtension(input.original_name),
    description: '',
    created,
    updated: created,
    ...input,
  };
  files.records.push(record);
  return record;
}
