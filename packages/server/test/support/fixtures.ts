import type PocketBase from 'pocketbase';
import type { RecordModel } from 'pocketbase';
import type { TestServer } from './testServer';

let sequence = 0;

export interface RegisteredUser {
  record: RecordModel;
  username: string;
  email: string;
  password: string;
  /** A client signed in as this user. */
  pb: PocketBase;
}

/** Registers a user through the record API and signs a fresh client in as them. */
export async function registerUser(
  testServer: TestServer,
  overrides: Partial<{ username: string; email: string; password: string; name: string }> = {},
): Promise<RegisteredUser> {
  sequence += 1;
  const suffix = `${sequence}${Math.random().toString(36).slice(2, 6)}`;
  // Not `user_…`: that prefix is reserved for temporary accounts.
  const username = overrides.username ?? `member_${suffix}`;
  const email = overrides.email ?? `${username.toLowerCase()}@example.test`;
  const password = overrides.password ?? 'correct horse battery';
  const guest = testServer.client();
  const record = await guest.collection('users').create({
    username,
    email,
    password,
    passwordConfirm: password,
    ...(overrides.name === undefined ? {} : { name: overrides.name }),
  });
  const pb = testServer.client();
  await pb.collection('users').authWithPassword(username, password);
  return { record, username, email, password, pb };
}

/** Creates a chat as `owner` with the given extra participants. */
export async function createChat(
  owner: RegisteredUser,
  overrides: Partial<{ name: string; participants: string[]; description: string }> = {},
): Promise<RecordModel> {
  return owner.pb.collection('chats').create({
    name: overrides.name ?? 'Test chat',
    description: overrides.description ?? '',
    participants: overrides.participants ?? [],
  });
}

export async function postMessage(author: RegisteredUser, chatId: string, content: string): Promise<RecordModel> {
  return author.pb.collection('messages').create({ chat: chatId, encryptedContent: content, message_type: 'regular' });
}

/** Calls a function expected to fail and returns the SDK error (status, response body). */
export async function failureOf(action: () => Promise<unknown>): Promise<{ status: number; response: Record<string, unknown> }> {
  try {
    await action();
  } catch (error) {
    const failure = error as { status: number; response: Record<string, unknown> };
    return { status: failure.status, response: failure.response };
  }
  throw new Error('expected the call to fail');
}
