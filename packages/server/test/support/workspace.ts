import type { RegisteredUser } from './fixtures';
import type { TestServer } from './testServer';

/** Uploads `content` as a file of the chat through the record API; answers the record id. */
export async function uploadFile(testServer: TestServer, user: RegisteredUser, chatId: string, name: string, content: string, description = ''): Promise<string> {
  const form = new FormData();
  form.set('chat', chatId);
  if (description !== '') form.set('description', description);
  form.set('file', new Blob([new Uint8Array(Buffer.from(content))]), name);
  const response = await fetch(`${testServer.url}/api/collections/files/records`, { method: 'POST', headers: { authorization: `Bearer ${user.pb.authStore.token}` }, body: form });
  const body = (await response.json()) as { id?: string };
  if (response.status !== 200 || body.id === undefined) throw new Error(`upload failed: ${response.status} ${JSON.stringify(body)}`);
  return body.id;
}

export async function deleteFile(testServer: TestServer, user: RegisteredUser, fileId: string): Promise<void> {
  const response = await fetch(`${testServer.url}/api/collections/files/records/${fileId}`, { method: 'DELETE', headers: { authorization: `Bearer ${user.pb.authStore.token}` } });
  if (response.status !== 204) throw new Error(`delete failed: ${response.status}`);
}

/** Publishes a drop of the chat; answers its id and slug. */
export async function publishDrop(testServer: TestServer, user: RegisteredUser, chatId: string, title: string, content: string): Promise<{ id: string; slug: string }> {
  const response = await fetch(`${testServer.url}/api/drops`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.pb.authStore.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ chat_id: chatId, title, content }),
  });
  const body = (await response.json()) as { id?: string; slug?: string };
  if (response.status !== 200 || body.id === undefined || body.slug === undefined) throw new Error(`drop failed: ${response.status} ${JSON.stringify(body)}`);
  return { id: body.id, slug: body.slug };
}

export async function deleteDrop(testServer: TestServer, user: RegisteredUser, dropId: string): Promise<void> {
  const response = await fetch(`${testServer.url}/api/drops/${dropId}`, { method: 'DELETE', headers: { authorization: `Bearer ${user.pb.authStore.token}` } });
  if (response.status !== 204 && response.status !== 200) throw new Error(`drop delete failed: ${response.status}`);
}
