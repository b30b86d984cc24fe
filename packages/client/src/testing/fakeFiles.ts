import type { ChatFile } from '../files/chatFile';
import { fileExtension, isAllowedUpload, messages, mimeFromExtension } from '../rules';
import type { FakeChat, FakeMessage, FakeUser } from './fakeBackend';
import { announceFile, announceFileDeleted } from './fakeAnnouncements';
import { callerId, collectionIds, errorResponse, json, nextRecordId, stamp } from './fakeHttp';

/*
 * The files routes of the fake backend (docs/CONTRACTS.md, Files): list, multipart create,
 * delete (the uploader only, else 404, or a status chosen per id) and POST /api/files/token.
 */

export interface FakeFilesData {
  users: FakeUser[];
  chats: FakeChat[];
  /** The chats' messages: an upload posts a file message there. */
  messages: FakeMessage[];
  files: ChatFile[];
  /** DELETE of one of these ids answers this status (e.g. 404 or 500) instead of the normal rule. */
  deleteOutcomes: Map<string, number>;
  /** Every token POST /api/files/token handed out, in order. */
  fileTokens: string[];
}

export type FakeFileInput = Partial<ChatFile> & { chat: string; uploaded_by: string; original_name: string };

let fileMinutes = 0;

/** A file record as the server stores one; each new one is a minute newer than the last. */
export function buildFileRecord(input: FakeFileInput): ChatFile {
  fileMinutes += 1;
  const extension = fileExtension(input.original_name);
  const base = input.original_name.slice(0, input.original_name.length - extension.length).toLowerCase().replace(/[^a-z0-9]+/g, '_');
  const id = nextRecordId('file');
  return {
    id,
    collectionId: collectionIds.files,
    collectionName: 'files',
    file: `${base}_${id.slice(-10)}${extension}`,
    size: 1024,
    mime_type: mimeFromExtension(input.original_name),
    description: '',
    created: stamp(fileMinutes),
    updated: stamp(fileMinutes),
    ...input,
  };
}

export function createFileRoutes(data: FakeFilesData) {
  const uploader = (id: string) => {
    const user = data.users.find((candidate) => candidate.id === id);
    return user ? { id: user.id, username: user.username, name: user.name } : undefined;
  };
  const present = (file: ChatFile, expand: string) => {
    const uploadedBy = expand.split(',').includes('uploaded_by') ? uploader(file.uploaded_by) : undefined;
    return { ...file, expand: uploadedBy ? { uploaded_by: uploadedBy } : {} };
  };

  return (request: Request, url: URL, body: Record<string, unknown>): Response | null => {
    const isToken = url.pathname === '/api/files/token';
    const match = /^\/api\/collections\/files\/records(?:\/([^/]+))?$/.exec(url.pathname);
    if (!isToken && match === null) return null;
    const caller = callerId(request);
    if (caller === null) return errorResponse(401, 'The request requires valid record authorization token.');
    if (isToken) {
      const token = `filetoken${data.fileTokens.length + 1}`;
      data.fileTokens.push(token);
      return json(200, { token });
    }

    const id = match?.[1];
    const visibleChats = new Set(data.chats.filter((chat) => chat.participants.includes(caller)).map((chat) => chat.id));
    if (request.method === 'GET' && id === undefined) {
      const chatId = /chat\s*=\s*["']([^"']+)["']/.exec(url.searchParams.get('filter') ?? '')?.[1];
      const items = data.files
        .filter((file) => visibleChats.has(file.chat) && (chatId === undefined || file.chat === chatId))
        .sort((a, b) => (url.searchParams.get('sort') === '-created' ? b.created.localeCompare(a.created) : 0));
      const perPage = Number(url.searchParams.get('perPage') ?? 30);
      return json(200, {
        page: 1,
        perPage,
        totalItems: items.length,
        totalPages: Math.max(1, Math.ceil(items.length / perPage)),
        items: items.slice(0, perPage).map((file) => present(file, url.searchParams.get('expand') ?? '')),
      });
    }
    if (request.method === 'POST' && id === undefined) {
      const part = body['file'];
      const chat = String(body['chat'] ?? '');
      if (!(part instanceof Blob) || !visibleChats.has(chat)) return errorResponse(400, 'Failed to create record.');
      const name = (part as Blob & { name?: string }).name ?? 'blob';
      if (!isAllowedUpload(name)) {
        const message = messages.unsupportedFileFormat(fileExtension(name) || name);
        return errorResponse(400, message, { file: { code: 'validation_invalid_file_type', message } });
      }
      const record = buildFileRecord({ chat, uploaded_by: caller, original_name: name, size: part.size, description: String(body['description'] ?? '') });
      data.files.push(record);
      announceFile(data, record);
      return json(200, record);
    }
    if (request.method === 'DELETE' && id !== undefined) {
      const outcome = data.deleteOutcomes.get(id);
      if (outcome !== undefined && outcome >= 400) return errorResponse(outcome, outcome === 404 ? "The requested resource wasn't found." : 'Something went wrong.');
      const index = data.files.findIndex((file) => file.id === id && visibleChats.has(file.chat));
      if (index === -1 || (outcome === undefined && data.files[index]?.uploaded_by !== caller)) {
        return errorResponse(404, "The requested resource wasn't found.");
      }
      data.files.splice(index, 1);
      announceFileDeleted(data, id);
      return new Response(null, { status: 204 });
    }
    return null;
  };
}
