import type { ChatFile } from '../files/chatFile';
import type { MessageFile, SystemLine } from '../protocol';
import { systemLineText } from '../rules';
import type { FakeChat, FakeMessage, FakeUser } from './fakeBackend';
import { nextRecordId } from './fakeHttp';

/*
 * The messages the fake backend writes itself, as the server does (docs/CONTRACTS.md, File
 * messages and system lines): a file message per person's upload, marked when the file is
 * deleted, and system lines for membership and name changes, which badge nobody caught up.
 */

export interface FakeAnnouncementsData {
  users: FakeUser[];
  chats: FakeChat[];
  messages: FakeMessage[];
}

const personOf = (data: FakeAnnouncementsData, id: string) => {
  const user = data.users.find((candidate) => candidate.id === id);
  return { id, name: user === undefined ? '' : user.name || user.username, isAgent: user?.type?.endsWith('-agent') === true };
};

function store(data: FakeAnnouncementsData, chat: FakeChat, author: string, fields: Pick<FakeMessage, 'message_type' | 'content'> & Partial<FakeMessage>): FakeMessage {
  const seq = data.messages.filter((message) => message.chat === chat.id).length + 1;
  const at = new Date().toISOString().replace('T', ' ');
  const message: FakeMessage = { id: nextRecordId('msg'), chat: chat.id, author, seq, created: at, ...fields };
  data.messages.push(message);
  chat.updated = at;
  return message;
}

/** A person's upload announces itself; agents' files stay quiet. */
export function announceFile(data: FakeAnnouncementsData, file: ChatFile): void {
  const chat = data.chats.find((candidate) => candidate.id === file.chat);
  const uploader = personOf(data, file.uploaded_by);
  if (chat === undefined || uploader.isAgent) return;
  const name = file.original_name || file.file;
  const details: MessageFile = { file_id: file.id, name, file: file.file, type: file.mime_type, size: file.size };
  const message = store(data, chat, uploader.id, { message_type: 'file', content: `shared ${name}`, file: details });
  // The uploader has read up to their own card, as after posting.
  chat.last_read = { ...chat.last_read, [uploader.id]: message.seq };
}

export function announceFileDeleted(data: FakeAnnouncementsData, fileId: string): void {
  for (const message of data.messages) {
    if (message.file?.file_id !== fileId) continue;
    message.file = { ...message.file, deleted: true };
    message.updated = new Date().toISOString().replace('T', ' ');
  }
}

/** A system line by `actorId`; everyone who had read up to it reads it too. */
export function announceChange(data: FakeAnnouncementsData, chat: FakeChat, actorId: string, change: Omit<SystemLine, 'actor'>): void {
  const actor = personOf(data, actorId);
  if (actor.isAgent) return;
  const line: SystemLine = { ...change, actor: { id: actor.id, name: actor.name } };
  const previous = data.messages.filter((message) => message.chat === chat.id).length;
  const message = store(data, chat, actor.id, { message_type: 'system', content: systemLineText(line), system: line });
  const positions = { ...chat.last_read };
  for (const member of chat.participants) if ((positions[member] ?? previous) >= previous) positions[member] = message.seq;
  chat.last_read = positions;
}

/** The lines a chat update tells: each person added or removed, and a new name. */
export function announceUpdate(data: FakeAnnouncementsData, chat: FakeChat, actorId: string, before: { name: string; participants: string[] }): void {
  const subject = (id: string) => {
    const person = personOf(data, id);
    return { id: person.id, name: person.name };
  };
  for (const id of chat.participants.filter((member) => !before.participants.includes(member))) announceChange(data, chat, actorId, { kind: 'added', subject: subject(id) });
  for (const id of before.participants.filter((member) => !chat.participants.includes(member))) announceChange(data, chat, actorId, { kind: 'removed', subject: subject(id) });
  if (chat.name !== before.name) announceChange(data, chat, actorId, { kind: 'renamed', name: chat.name });
}
