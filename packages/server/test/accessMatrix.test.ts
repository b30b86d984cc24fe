import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';

/**
 * Every record route and product endpoint × {guest, participant (owner/author), chat admin, outsider, server admin},
 * asserting the status and, for refused writes, that the database did not change.
 */
const variants = await databaseVariants();

const roles = ['guest', 'participant', 'chatAdmin', 'outsider', 'serverAdmin'] as const;
type Role = (typeof roles)[number];
type Expectation = Record<Role, number>;

interface World {
  testServer: TestServer;
  users: Record<Exclude<Role, 'guest'>, RegisteredUser>;
  chatId: string;
  messageId: string;
  /** A file the participant uploaded to the chat. */
  file: { id: string; file: string };
  /** The file message that upload posted, and a system line (the chat admin renamed the chat). */
  fileMessageId: string;
  systemLineId: string;
}

function tokenOf(world: World, role: Role): string | undefined {
  return role === 'guest' ? undefined : world.users[role].pb.authStore.token;
}

interface Case {
  route: string;
  expected: Expectation;
  /** Runs the call; may create a fresh target first so cases stay independent. */
  call: (world: World, role: Role) => Promise<{ status: number; verify?: () => Promise<void> }>;
}

async function call(world: World, role: Role, method: string, path: string, body?: unknown) {
  const token = tokenOf(world, role);
  return rawRequest(world.testServer.url, method, path, { ...(token === undefined ? {} : { token }), ...(body === undefined ? {} : { body }) });
}

/** A multipart upload of a small text file to the world's chat, as `role`. */
async function uploadAs(world: World, role: Role, fileName: string): Promise<{ status: number; body: unknown }> {
  const form = new FormData();
  form.append('chat', world.chatId);
  form.append('file', new File([`written by ${role}\n`], fileName, { type: 'text/plain' }));
  const token = tokenOf(world, role);
  const response = await fetch(`${world.testServer.url}/api/collections/files/records`, {
    method: 'POST',
    headers: token === undefined ? {} : { authorization: token },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

async function singleValue(world: World, sqlText: string, parameters: unknown[]): Promise<unknown> {
  const rows = await world.testServer.probe.rows(sqlText, parameters);
  return Object.values(rows[0] ?? {})[0];
}

/** The chat admin invites the participant's e-mail to a fresh chat; the participant finds it in the app. */
async function invitationForParticipant(world: World): Promise<{ chatId: string; invitationId: string }> {
  const chat = await createChat(world.users.chatAdmin);
  const invited = await call(world, 'chatAdmin', 'POST', '/api/invite-to-chat', { chat_id: chat.id, email: world.users.participant.email });
  expect(invited.status).toBe(200);
  const invitationId = await singleValue(world, 'select id from invitations where chat = $1', [chat.id]);
  return { chatId: chat.id, invitationId: String(invitationId) };
}

const all = (status: number): Expectation => ({ guest: status, participant: status, chatAdmin: status, outsider: status, serverAdmin: status });

const cases: Case[] = [
  { route: 'GET users list', expected: all(200), call: async (world, role) => call(world, role, 'GET', '/api/collections/users/records') },
  {
    route: 'GET users/{participant}',
    expected: { guest: 404, participant: 200, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => call(world, role, 'GET', `/api/collections/users/records/${world.users.participant.record.id}`),
  },
  { route: 'POST users (register)', expected: all(200), call: async (world, role) => {
    const username = `reg_${role}_${Math.random().toString(36).slice(2, 8)}`;
    return call(world, role, 'POST', '/api/collections/users/records', {
      username, email: `${username}@example.test`, password: 'password1', passwordConfirm: 'password1',
    });
  } },
  {
    route: 'PATCH users/{participant}',
    expected: { guest: 404, participant: 200, chatAdmin: 404, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const id = world.users.participant.record.id;
      const name = `renamed by ${role}`;
      const response = await call(world, role, 'PATCH', `/api/collections/users/records/${id}`, { name, is_admin: true });
      return {
        status: response.status,
        verify: async () => {
          const stored = await singleValue(world, 'select name from users where id = $1', [id]);
          expect(stored === name).toBe(response.status === 200);
          expect(await singleValue(world, 'select is_admin from users where id = $1', [id])).toBe(0);
        },
      };
    },
  },
  {
    route: 'DELETE users/{fresh participant}',
    expected: { guest: 404, participant: 204, chatAdmin: 404, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const victim = await registerUser(world.testServer);
      await world.users.chatAdmin.pb.collection('chats').update(world.chatId, { 'participants+': victim.record.id });
      const path = `/api/collections/users/records/${victim.record.id}`;
      const response =
        role === 'participant'
          ? await rawRequest(world.testServer.url, 'DELETE', path, { token: victim.pb.authStore.token })
          : await call(world, role, 'DELETE', path);
      return {
        status: response.status,
        verify: async () => {
          const count = Number(await singleValue(world, 'select count(*) from users where id = $1', [victim.record.id]));
          expect(count).toBe(response.status === 204 ? 0 : 1);
        },
      };
    },
  },
  { route: 'GET chats list', expected: all(200), call: async (world, role) => call(world, role, 'GET', '/api/collections/chats/records') },
  {
    route: 'GET chats/{chat}',
    expected: { guest: 404, participant: 200, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => call(world, role, 'GET', `/api/collections/chats/records/${world.chatId}`),
  },
  {
    route: 'POST chats',
    expected: { guest: 400, participant: 200, chatAdmin: 200, outsider: 200, serverAdmin: 200 },
    call: async (world, role) => {
      const before = await world.testServer.probe.count('chats');
      const response = await call(world, role, 'POST', '/api/collections/chats/records', { name: `by ${role}` });
      return {
        status: response.status,
        verify: async () => expect(await world.testServer.probe.count('chats')).toBe(before + (response.status === 200 ? 1 : 0)),
      };
    },
  },
  {
    route: 'PATCH chats/{chat}',
    expected: { guest: 404, participant: 404, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const name = `renamed by ${role}`;
      const response = await call(world, role, 'PATCH', `/api/collections/chats/records/${world.chatId}`, { name });
      return {
        status: response.status,
        verify: async () => {
          expect((await singleValue(world, 'select name from chats where id = $1', [world.chatId])) === name).toBe(response.status === 200);
        },
      };
    },
  },
  {
    route: 'PATCH chats/{chat} participants+ self',
    expected: { guest: 404, participant: 404, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const self = role === 'guest' ? 'nobody' : world.users[role].record.id;
      const response = await call(world, role, 'PATCH', `/api/collections/chats/records/${world.chatId}`, { 'participants+': [self] });
      return {
        status: response.status,
        verify: async () => {
          if (role === 'outsider' || role === 'serverAdmin') {
            const joined = await singleValue(world, 'select count(*) from chat_participants where chat_id = $1 and user_id = $2', [world.chatId, self]);
            expect(Number(joined)).toBe(0);
          }
        },
      };
    },
  },
  {
    route: 'DELETE chats/{fresh chat}',
    expected: { guest: 404, participant: 404, chatAdmin: 204, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const chat = await createChat(world.users.chatAdmin, { participants: [world.users.participant.record.id] });
      const response = await call(world, role, 'DELETE', `/api/collections/chats/records/${chat.id}`);
      return {
        status: response.status,
        verify: async () => {
          const count = Number(await singleValue(world, 'select count(*) from chats where id = $1', [chat.id]));
          expect(count).toBe(response.status === 204 ? 0 : 1);
        },
      };
    },
  },
  {
    route: 'PATCH chats/{fresh chat} promote participant (admins+)',
    expected: { guest: 404, participant: 404, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const chat = await createChat(world.users.chatAdmin, { participants: [world.users.participant.record.id] });
      const target = world.users.participant.record.id;
      const response = await call(world, role, 'PATCH', `/api/collections/chats/records/${chat.id}`, { 'admins+': target });
      return {
        status: response.status,
        verify: async () => {
          const admin = await singleValue(world, 'select count(*) from chat_admins where chat_id = $1 and user_id = $2', [chat.id, target]);
          expect(Number(admin)).toBe(response.status === 200 ? 1 : 0);
        },
      };
    },
  },
  {
    route: 'PATCH chats/{fresh chat} demote another admin (admins-)',
    expected: { guest: 404, participant: 404, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const chat = await createChat(world.users.chatAdmin, { participants: [world.users.participant.record.id] });
      const helper = await registerUser(world.testServer);
      await world.users.chatAdmin.pb.collection('chats').update(chat.id, { 'admins+': helper.record.id });
      const response = await call(world, role, 'PATCH', `/api/collections/chats/records/${chat.id}`, { 'admins-': helper.record.id });
      return {
        status: response.status,
        verify: async () => {
          const admin = await singleValue(world, 'select count(*) from chat_admins where chat_id = $1 and user_id = $2', [chat.id, helper.record.id]);
          expect(Number(admin)).toBe(response.status === 200 ? 0 : 1);
        },
      };
    },
  },
  {
    route: 'PATCH chats/{fresh chat} remove participant (participants-)',
    expected: { guest: 404, participant: 404, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const victim = await registerUser(world.testServer);
      const chat = await createChat(world.users.chatAdmin, { participants: [world.users.participant.record.id, victim.record.id] });
      const response = await call(world, role, 'PATCH', `/api/collections/chats/records/${chat.id}`, { 'participants-': victim.record.id });
      return {
        status: response.status,
        verify: async () => {
          const member = await singleValue(world, 'select count(*) from chat_participants where chat_id = $1 and user_id = $2', [chat.id, victim.record.id]);
          expect(Number(member)).toBe(response.status === 200 ? 0 : 1);
        },
      };
    },
  },
  {
    route: 'PATCH chats/{chat} agent settings',
    expected: { guest: 404, participant: 404, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const before = await singleValue(world, 'select agent_permissions from chats where id = $1', [world.chatId]);
      const permissions = { confab_agents: role !== 'chatAdmin', developer_agents: true };
      const response = await call(world, role, 'PATCH', `/api/collections/chats/records/${world.chatId}`, {
        agent_permissions: permissions, auto_route_enabled: true, auto_route_agent: `agent_${role}`,
      });
      return {
        status: response.status,
        verify: async () => {
          const after = await singleValue(world, 'select agent_permissions from chats where id = $1', [world.chatId]);
          expect(after !== before).toBe(response.status === 200 && JSON.stringify(permissions) !== before);
          const agent = await singleValue(world, 'select auto_route_agent from chats where id = $1', [world.chatId]);
          expect(agent === `agent_${role}`).toBe(response.status === 200);
        },
      };
    },
  },
  {
    route: 'GET messages list of the chat',
    expected: all(200),
    call: async (world, role) => {
      const filter = encodeURIComponent(`chat = "${world.chatId}"`);
      const response = await call(world, role, 'GET', `/api/collections/messages/records?filter=${filter}`);
      return {
        status: response.status,
        verify: async () => {
          const visible = (response.body as { items: unknown[] }).items.length > 0;
          expect(visible).toBe(role === 'participant' || role === 'chatAdmin');
        },
      };
    },
  },
  {
    route: 'GET messages/{message}',
    expected: { guest: 404, participant: 200, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => call(world, role, 'GET', `/api/collections/messages/records/${world.messageId}`),
  },
  {
    route: 'POST messages',
    expected: { guest: 400, participant: 200, chatAdmin: 200, outsider: 400, serverAdmin: 400 },
    call: async (world, role) => {
      const before = await world.testServer.probe.count('messages');
      const response = await call(world, role, 'POST', '/api/collections/messages/records', { chat: world.chatId, encryptedContent: `from ${role}` });
      return {
        status: response.status,
        verify: async () => expect(await world.testServer.probe.count('messages')).toBe(before + (response.status === 200 ? 1 : 0)),
      };
    },
  },
  {
    // A reply (docs/CONTRACTS.md, Replies): only participants answer a message, and only they move its count.
    route: 'POST messages (reply_to)',
    expected: { guest: 400, participant: 200, chatAdmin: 200, outsider: 400, serverAdmin: 400 },
    call: async (world, role) => {
      const countOf = async () => Number(await singleValue(world, 'select reply_count from messages where id = $1', [world.messageId]));
      const before = await countOf();
      const response = await call(world, role, 'POST', '/api/collections/messages/records', { chat: world.chatId, content: `reply from ${role}`, reply_to: world.messageId });
      return {
        status: response.status,
        verify: async () => expect(await countOf()).toBe(before + (response.status === 200 ? 1 : 0)),
      };
    },
  },
  {
    route: 'PATCH messages/{participant message}',
    expected: { guest: 404, participant: 200, chatAdmin: 404, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const before = await singleValue(world, 'select content_encrypted from messages where id = $1', [world.messageId]);
      const response = await call(world, role, 'PATCH', `/api/collections/messages/records/${world.messageId}`, { content: `edited by ${role}` });
      return {
        status: response.status,
        verify: async () => {
          const after = await singleValue(world, 'select content_encrypted from messages where id = $1', [world.messageId]);
          expect(after !== before).toBe(response.status === 200);
        },
      };
    },
  },
  {
    // Only participants react (docs/CONTRACTS.md, Reactions); everyone else learns nothing of the message.
    route: 'PUT messages/{message}/reactions/{emoji}',
    expected: { guest: 401, participant: 200, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const before = await world.testServer.probe.count('message_reactions');
      const response = await call(world, role, 'PUT', `/api/messages/${world.messageId}/reactions/${encodeURIComponent('👍')}`);
      return {
        status: response.status,
        verify: async () => expect(await world.testServer.probe.count('message_reactions')).toBe(before + (response.status === 200 ? 1 : 0)),
      };
    },
  },
  {
    route: 'DELETE messages/{message}/reactions/{emoji}',
    expected: { guest: 401, participant: 200, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      // The participant's own 🎉 is there to remove; a refused call leaves it.
      await call(world, 'participant', 'PUT', `/api/messages/${world.messageId}/reactions/${encodeURIComponent('🎉')}`);
      const before = await world.testServer.probe.count('message_reactions');
      const response = await call(world, role, 'DELETE', `/api/messages/${world.messageId}/reactions/${encodeURIComponent('🎉')}`);
      const removed = role === 'participant' ? 1 : 0;
      return { status: response.status, verify: async () => expect(await world.testServer.probe.count('message_reactions')).toBe(before - removed) };
    },
  },
  {
    // The author deletes, and so does a chat admin (moderation); the row stays, emptied.
    route: 'DELETE messages/{fresh participant message}',
    expected: { guest: 404, participant: 204, chatAdmin: 204, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const message = await postMessage(world.users.participant, world.chatId, 'to delete');
      const response = await call(world, role, 'DELETE', `/api/collections/messages/records/${message.id}`);
      return {
        status: response.status,
        verify: async () => {
          const deletedAt = await singleValue(world, 'select deleted_at from messages where id = $1', [message.id]);
          expect(deletedAt !== null).toBe(response.status === 204);
        },
      };
    },
  },
  { route: 'GET files list', expected: all(200), call: async (world, role) => call(world, role, 'GET', '/api/collections/files/records') },
  { route: 'GET files/{missing}', expected: all(404), call: async (world, role) => call(world, role, 'GET', '/api/collections/files/records/aaaaaaaaaaaaaaa') },
  {
    route: 'POST files without a file',
    expected: all(400),
    call: async (world, role) => call(world, role, 'POST', '/api/collections/files/records', { chat: world.chatId, description: 'x' }),
  },
  {
    route: 'GET files list of the chat',
    expected: { guest: 404, participant: 200, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => call(world, role, 'GET', `/api/collections/files/records?filter=${encodeURIComponent(`chat='${world.chatId}'`)}`),
  },
  {
    route: 'GET files/{participant file}',
    expected: { guest: 404, participant: 200, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => call(world, role, 'GET', `/api/collections/files/records/${world.file.id}`),
  },
  {
    route: 'GET /api/files/files/{participant file}/{name} (download)',
    expected: { guest: 404, participant: 200, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => call(world, role, 'GET', `/api/files/files/${world.file.id}/${world.file.file}`),
  },
  {
    route: 'POST /api/files/token',
    expected: { guest: 401, participant: 200, chatAdmin: 200, outsider: 200, serverAdmin: 200 },
    call: async (world, role) => call(world, role, 'POST', '/api/files/token'),
  },
  {
    route: 'POST files (multipart upload to the chat)',
    expected: { guest: 400, participant: 200, chatAdmin: 200, outsider: 400, serverAdmin: 400 },
    call: async (world, role) => {
      const before = Number(await singleValue(world, 'select count(*) from files where chat = $1', [world.chatId]));
      const response = await uploadAs(world, role, `upload by ${role}.txt`);
      return {
        status: response.status,
        verify: async () => {
          const after = Number(await singleValue(world, 'select count(*) from files where chat = $1', [world.chatId]));
          expect(after - before).toBe(response.status === 200 ? 1 : 0);
        },
      };
    },
  },
  {
    route: 'DELETE files/{fresh participant file}',
    expected: { guest: 404, participant: 204, chatAdmin: 404, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const created = await uploadAs(world, 'participant', 'to delete.txt');
      const file = created.body as { id: string; file: string };
      const response = await call(world, role, 'DELETE', `/api/collections/files/records/${file.id}`);
      return {
        status: response.status,
        verify: async () => {
          const count = Number(await singleValue(world, 'select count(*) from files where id = $1', [file.id]));
          expect(count).toBe(response.status === 204 ? 0 : 1);
          expect(existsSync(join(world.testServer.dataDir, 'files', world.chatId, file.id, file.file))).toBe(response.status !== 204);
        },
      };
    },
  },
  {
    route: 'POST /api/invite-to-chat {username of a fresh user}',
    expected: { guest: 401, participant: 403, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const invitee = await registerUser(world.testServer);
      const response = await call(world, role, 'POST', '/api/invite-to-chat', { chat_id: world.chatId, username: invitee.username });
      return {
        status: response.status,
        verify: async () => {
          const count = Number(await singleValue(world, 'select count(*) from chat_participants where chat_id = $1 and user_id = $2', [world.chatId, invitee.record.id]));
          expect(count).toBe(response.status === 200 ? 1 : 0);
        },
      };
    },
  },
  {
    route: 'POST /api/invite-to-chat {e-mail of a fresh account}',
    expected: { guest: 401, participant: 403, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const invitee = await registerUser(world.testServer);
      const response = await call(world, role, 'POST', '/api/invite-to-chat', { chat_id: world.chatId, email: invitee.email });
      return {
        status: response.status,
        verify: async () => {
          // Never added by an e-mail invitation; an invitation waits only when an admin sent it.
          const member = await singleValue(world, 'select count(*) from chat_participants where chat_id = $1 and user_id = $2', [world.chatId, invitee.record.id]);
          expect(Number(member)).toBe(0);
          const waiting = await singleValue(world, 'select count(*) from invitations where chat = $1 and invitee = $2', [world.chatId, invitee.record.id]);
          expect(Number(waiting)).toBe(response.status === 200 ? 1 : 0);
        },
      };
    },
  },
  {
    route: 'GET /api/my-invitations',
    expected: { guest: 401, participant: 200, chatAdmin: 200, outsider: 200, serverAdmin: 200 },
    call: async (world, role) => call(world, role, 'GET', '/api/my-invitations'),
  },
  {
    route: "POST /api/my-invitations/{the participant's invitation}/accept",
    expected: { guest: 401, participant: 200, chatAdmin: 404, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const { chatId, invitationId } = await invitationForParticipant(world);
      const response = await call(world, role, 'POST', `/api/my-invitations/${invitationId}/accept`);
      return {
        status: response.status,
        verify: async () => {
          const joined = await singleValue(world, 'select count(*) from chat_participants where chat_id = $1 and user_id = $2', [chatId, world.users.participant.record.id]);
          expect(Number(joined)).toBe(response.status === 200 ? 1 : 0);
          const accepted = await singleValue(world, 'select accepted_by from invitations where id = $1', [invitationId]);
          expect(accepted).toBe(response.status === 200 ? world.users.participant.record.id : null);
        },
      };
    },
  },
  {
    route: "POST /api/my-invitations/{the participant's invitation}/decline",
    expected: { guest: 401, participant: 204, chatAdmin: 404, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const { invitationId } = await invitationForParticipant(world);
      const response = await call(world, role, 'POST', `/api/my-invitations/${invitationId}/decline`);
      return {
        status: response.status,
        verify: async () => {
          const left = Number(await singleValue(world, 'select count(*) from invitations where id = $1', [invitationId]));
          expect(left).toBe(response.status === 204 ? 0 : 1);
        },
      };
    },
  },
  {
    route: 'POST /api/chats/{fresh chat}/leave',
    expected: { guest: 401, participant: 204, chatAdmin: 400, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const chat = await createChat(world.users.chatAdmin, { participants: [world.users.participant.record.id] });
      const before = Number(await singleValue(world, 'select count(*) from chat_participants where chat_id = $1', [chat.id]));
      const response = await call(world, role, 'POST', `/api/chats/${chat.id}/leave`);
      return {
        status: response.status,
        verify: async () => {
          const after = Number(await singleValue(world, 'select count(*) from chat_participants where chat_id = $1', [chat.id]));
          expect(after).toBe(before - (response.status === 204 ? 1 : 0));
        },
      };
    },
  },
  {
    route: 'POST /api/chats/{fresh chat}/read and /mute',
    expected: { guest: 401, participant: 200, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      // A chat of the admin and the participant with one unread message for each: only they move their own state.
      const chat = await createChat(world.users.chatAdmin, { participants: [world.users.participant.record.id] });
      await postMessage(world.users.chatAdmin, chat.id, 'for the reader');
      const rowsBefore = await world.testServer.probe.rows('select user_id, last_read_seq, muted from chat_reads where chat_id = $1 order by user_id', [chat.id]);
      const read = await call(world, role, 'POST', `/api/chats/${chat.id}/read`, { seq: 1 });
      const mute = await call(world, role, 'POST', `/api/chats/${chat.id}/mute`, { muted: true });
      expect(mute.status).toBe(read.status);
      return {
        status: read.status,
        verify: async () => {
          if (read.status === 200) return;
          const rowsAfter = await world.testServer.probe.rows('select user_id, last_read_seq, muted from chat_reads where chat_id = $1 order by user_id', [chat.id]);
          expect(rowsAfter.map((row) => [row['user_id'], Number(row['muted'])])).toEqual(rowsBefore.map((row) => [row['user_id'], Number(row['muted'])]));
        },
      };
    },
  },
  {
    route: 'POST /api/create-share-link/{chat}',
    expected: { guest: 401, participant: 403, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const before = Number(await singleValue(world, 'select count(*) from share_links where chat = $1 and revoked_at is null', [world.chatId]));
      const response = await call(world, role, 'POST', `/api/create-share-link/${world.chatId}`, {});
      return {
        status: response.status,
        verify: async () => {
          const links = Number(await singleValue(world, 'select count(*) from share_links where chat = $1', [world.chatId]));
          const live = Number(await singleValue(world, 'select count(*) from share_links where chat = $1 and revoked_at is null', [world.chatId]));
          if (response.status === 200) expect(live).toBe(1);
          else expect(live).toBe(before);
          expect(links).toBeGreaterThanOrEqual(live);
        },
      };
    },
  },
  {
    route: 'GET /api/search-users/{query}',
    expected: { guest: 401, participant: 200, chatAdmin: 200, outsider: 200, serverAdmin: 200 },
    call: async (world, role) => call(world, role, 'GET', '/api/search-users/us'),
  },
  {
    route: 'POST /api/complete-account (full accounts)',
    expected: { guest: 401, participant: 403, chatAdmin: 403, outsider: 403, serverAdmin: 403 },
    call: async (world, role) => {
      const response = await call(world, role, 'POST', '/api/complete-account', { email: `taken.${role}@example.test`, username: `taken_${role}`, password: 'password12' });
      return {
        status: response.status,
        verify: async () => {
          expect(Number(await singleValue(world, 'select count(*) from users where username = $1', [`taken_${role}`]))).toBe(0);
        },
      };
    },
  },
  // ---- agents (docs/CONTRACTS.md, Agents): owners manage their developer agents, server admins hosted ones ----
  { route: 'GET agents/mine', expected: { ...all(200), guest: 401 }, call: async (world, role) => call(world, role, 'GET', '/api/agents/mine') },
  { route: 'GET agents/search', expected: { ...all(200), guest: 401 }, call: async (world, role) => call(world, role, 'GET', '/api/agents/search?q=a') },
  {
    route: 'GET agents/search in {chat}',
    expected: { guest: 401, participant: 200, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => call(world, role, 'GET', `/api/agents/search?q=a&chat_id=${world.chatId}`),
  },
  {
    route: 'POST agents (create)',
    expected: { ...all(200), guest: 401 },
    call: async (world, role) => {
      const before = Number(await singleValue(world, "select count(*) from users where type = 'developer-agent'", []));
      const response = await call(world, role, 'POST', '/api/agents', { name: `Matrix ${role}` });
      return {
        status: response.status,
        verify: async () => {
          const after = Number(await singleValue(world, "select count(*) from users where type = 'developer-agent'", []));
          expect(after - before).toBe(response.status === 200 ? 1 : 0);
        },
      };
    },
  },
  ...(['PATCH', 'rotate-key', 'DELETE'] as const).map((action): Case => ({
    route: `${action} agents/{participant's agent}`,
    expected: { guest: 401, participant: action === 'DELETE' ? 204 : 200, chatAdmin: 404, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const created = await call(world, 'participant', 'POST', '/api/agents', { name: `Owned for ${action} ${role}` });
      const agentId = (created.body as { agent: { id: string } }).agent.id;
      const before = await world.testServer.probe.rows('select description, api_key_hash from users where id = $1', [agentId]);
      const response =
        action === 'PATCH'
          ? await call(world, role, 'PATCH', `/api/agents/${agentId}`, { description: `changed by ${role}` })
          : action === 'rotate-key'
            ? await call(world, role, 'POST', `/api/agents/${agentId}/rotate-key`)
            : await call(world, role, 'DELETE', `/api/agents/${agentId}`);
      return {
        status: response.status,
        verify: async () => {
          const after = await world.testServer.probe.rows('select description, api_key_hash from users where id = $1', [agentId]);
          if (response.status >= 400) expect(after).toEqual(before);
          else if (action === 'DELETE') expect(after).toEqual([]);
          else expect(after).not.toEqual(before);
        },
      };
    },
  })),
  { route: 'GET admin/confab-agents', expected: { guest: 401, participant: 403, chatAdmin: 403, outsider: 403, serverAdmin: 200 }, call: async (world, role) => call(world, role, 'GET', '/api/admin/confab-agents') },
  {
    route: 'POST admin/confab-agents',
    expected: { guest: 401, participant: 403, chatAdmin: 403, outsider: 403, serverAdmin: 200 },
    call: async (world, role) => {
      const before = Number(await singleValue(world, "select count(*) from users where type = 'confab-agent'", []));
      const response = await call(world, role, 'POST', '/api/admin/confab-agents', { name: `Hosted ${role}`, type: 'confab-agent' });
      return {
        status: response.status,
        verify: async () => {
          const after = Number(await singleValue(world, "select count(*) from users where type = 'confab-agent'", []));
          expect(after - before).toBe(response.status === 200 ? 1 : 0);
        },
      };
    },
  },
  {
    route: 'DELETE admin/confab-agents/{fresh}',
    expected: { guest: 401, participant: 403, chatAdmin: 403, outsider: 403, serverAdmin: 204 },
    call: async (world, role) => {
      const created = await call(world, 'serverAdmin', 'POST', '/api/admin/confab-agents', { name: `Doomed ${role}` });
      const agentId = (created.body as { agent: { id: string } }).agent.id;
      const response = await call(world, role, 'DELETE', `/api/admin/confab-agents/${agentId}`);
      return {
        status: response.status,
        verify: async () => {
          const count = Number(await singleValue(world, 'select count(*) from users where id = $1', [agentId]));
          expect(count).toBe(response.status === 204 ? 0 : 1);
        },
      };
    },
  },
  {
    route: 'POST agent/messages with a person’s token',
    expected: all(401),
    call: async (world, role) => {
      const before = Number(await singleValue(world, 'select count(*) from messages where chat = $1', [world.chatId]));
      const response = await call(world, role, 'POST', '/api/agent/messages', { chat_id: world.chatId, content: `as ${role}` });
      return {
        status: response.status,
        verify: async () => expect(Number(await singleValue(world, 'select count(*) from messages where chat = $1', [world.chatId]))).toBe(before),
      };
    },
  },
  // ---- presence (docs/CONTRACTS.md, Typing and presence): participants only ----
  {
    route: 'GET chats/{chat}/presence',
    expected: { guest: 401, participant: 200, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => call(world, role, 'GET', `/api/chats/${world.chatId}/presence`),
  },
  // ---- drops (docs/CONTRACTS.md, Drops): every signed-in person reads; participants publish; author or chat admin deletes ----
  {
    route: 'POST drops (publish from {chat})',
    expected: { guest: 401, participant: 200, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const before = Number(await singleValue(world, 'select count(*) from drops where chat = $1', [world.chatId]));
      const response = await call(world, role, 'POST', '/api/drops', { chat_id: world.chatId, title: `By ${role}`, content: 'Matrix' });
      return {
        status: response.status,
        verify: async () => expect(Number(await singleValue(world, 'select count(*) from drops where chat = $1', [world.chatId])) - before).toBe(response.status === 200 ? 1 : 0),
      };
    },
  },
  ...(['GET', 'like', 'bookmark'] as const).map((action): Case => ({
    route: `${action} drops/{drop}`,
    expected: { ...all(200), guest: 401 },
    call: async (world, role) => {
      const created = await call(world, 'participant', 'POST', '/api/drops', { chat_id: world.chatId, title: `Read by ${role}`, content: 'x' });
      const dropId = (created.body as { id: string }).id;
      return action === 'GET' ? call(world, role, 'GET', `/api/drops/${dropId}`) : call(world, role, 'POST', `/api/drops/${dropId}/${action}`);
    },
  })),
  {
    route: "DELETE drops/{participant's drop}",
    expected: { guest: 401, participant: 204, chatAdmin: 204, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => {
      const created = await call(world, 'participant', 'POST', '/api/drops', { chat_id: world.chatId, title: `Deleted by ${role}`, content: 'x' });
      const dropId = (created.body as { id: string }).id;
      const response = await call(world, role, 'DELETE', `/api/drops/${dropId}`);
      return {
        status: response.status,
        verify: async () => expect(Number(await singleValue(world, 'select count(*) from drops where id = $1', [dropId]))).toBe(response.status === 204 ? 0 : 1),
      };
    },
  },
  ...(['feed', 'trending', 'discover', 'bookmarks', 'notifications'] as const).map((feed): Case => ({
    route: `GET drops/${feed}`,
    expected: { ...all(200), guest: 401 },
    call: async (world, role) => call(world, role, 'GET', `/api/drops/${feed}`),
  })),
  { route: 'GET discover/chats', expected: { ...all(200), guest: 401 }, call: async (world, role) => call(world, role, 'GET', '/api/discover/chats') },
  {
    route: 'GET drops/chat/{chat with drops}',
    expected: { ...all(200), guest: 401 },
    call: async (world, role) => {
      await call(world, 'participant', 'POST', '/api/drops', { chat_id: world.chatId, title: 'So the chat has drops', content: 'x' });
      return call(world, role, 'GET', `/api/drops/chat/${world.chatId}`);
    },
  },
  // File messages and system lines (docs/CONTRACTS.md): read like messages, written by the server only.
  {
    route: 'GET messages/{file message}',
    expected: { guest: 404, participant: 200, chatAdmin: 200, outsider: 404, serverAdmin: 404 },
    call: async (world, role) => call(world, role, 'GET', `/api/collections/messages/records/${world.fileMessageId}`),
  },
  ...(['file message', 'system line'] as const).flatMap((kind): Case[] => [
    {
      route: `PATCH messages/{${kind}}`,
      expected: all(404),
      call: async (world, role) => {
        const id = kind === 'file message' ? world.fileMessageId : world.systemLineId;
        const before = await singleValue(world, 'select content_encrypted from messages where id = $1', [id]);
        const response = await call(world, role, 'PATCH', `/api/collections/messages/records/${id}`, { content: `rewritten by ${role}` });
        return { status: response.status, verify: async () => expect(await singleValue(world, 'select content_encrypted from messages where id = $1', [id])).toBe(before) };
      },
    },
  ]),
  {
    route: 'DELETE messages/{system line}',
    expected: all(404),
    call: async (world, role) => {
      const response = await call(world, role, 'DELETE', `/api/collections/messages/records/${world.systemLineId}`);
      return { status: response.status, verify: async () => expect(await singleValue(world, 'select deleted_at from messages where id = $1', [world.systemLineId])).toBeNull() };
    },
  },
  ...(['POST', 'DELETE'] as const).map((method): Case => ({
    route: `${method} follow/{chat with drops}`,
    expected: { ...all(200), guest: 401 },
    call: async (world, role) => {
      await call(world, 'participant', 'POST', '/api/drops', { chat_id: world.chatId, title: 'Followable', content: 'x' });
      return call(world, role, method, `/api/follow/${world.chatId}`);
    },
  })),
];

describe.each(variants)('access matrix ($name)', (variant) => {
  const world = {} as World;

  beforeAll(async () => {
    world.testServer = await startTestServer(variant);
    // The first account is the server admin; it shares no chat with the others.
    const serverAdmin = await registerUser(world.testServer);
    const chatAdmin = await registerUser(world.testServer);
    const participant = await registerUser(world.testServer);
    const outsider = await registerUser(world.testServer);
    world.users = { serverAdmin, chatAdmin, participant, outsider };
    world.chatId = (await createChat(chatAdmin, { participants: [participant.record.id] })).id;
    world.messageId = (await postMessage(participant, world.chatId, 'hello')).id;
    const uploaded = await uploadAs(world, 'participant', 'shared.txt');
    expect(uploaded.status).toBe(200);
    world.file = uploaded.body as { id: string; file: string };
    world.fileMessageId = String(await singleValue(world, "select id from messages where file = $1 and message_type = 'file'", [world.file.id]));
    await chatAdmin.pb.collection('chats').update(world.chatId, { name: 'Matrix' });
    world.systemLineId = String(await singleValue(world, "select id from messages where chat = $1 and message_type = 'system'", [world.chatId]));
  });

  afterAll(async () => {
    await world.testServer?.close();
  });

  const rows = cases.flatMap((testCase) => roles.map((role) => ({ testCase, role, status: testCase.expected[role] })));

  it.each(rows)('$testCase.route as $role → $status', async ({ testCase, role, status }) => {
    const result = await testCase.call(world, role);
    expect(result.status).toBe(status);
    await result.verify?.();
  });

  it('lists only what each role may see', async () => {
    const guestUsers = await call(world, 'guest', 'GET', '/api/collections/users/records');
    expect((guestUsers.body as { items: unknown[] }).items).toEqual([]);
    const outsiderChats = await call(world, 'outsider', 'GET', '/api/collections/chats/records');
    const outsiderChatIds = (outsiderChats.body as { items: { id: string }[] }).items.map((chat) => chat.id);
    expect(outsiderChatIds).not.toContain(world.chatId);
    const participantUsers = await call(world, 'participant', 'GET', '/api/collections/users/records?perPage=500');
    const visible = (participantUsers.body as { items: { id: string; email?: string }[] }).items;
    expect(visible.map((user) => user.id)).toContain(world.users.chatAdmin.record.id);
    expect(visible.map((user) => user.id)).not.toContain(world.users.outsider.record.id);
    for (const user of visible) {
      if (user.id !== world.users.participant.record.id) expect(user).not.toHaveProperty('email');
    }
  });
});
