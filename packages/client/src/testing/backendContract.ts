import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfabClient } from '../client/ConfabClient';
import { messages } from '../rules';
import { reactionTexts } from '../protocol';

/*
 * One contract, two backends (docs/STYLE.md, One fake, held to the real thing): the
 * behaviours the fake backend (fakeBackend.ts) answers, written once against the PocketBase wire
 * and @confab/client's public API, and run on the fake (backendContract.fake.test.ts, client
 * project) and on a real confab-server on SQLite (packages/server/test/backendContract.test.ts).
 * Whatever the fake answers differently from the server is a bug in the fake.
 */

export interface ContractBackend {
  /** The origin the client talks to. */
  baseUrl: string;
  /** The fake's in-memory fetch; undefined: the platform's fetch over the network. */
  fetch?: typeof fetch;
  close(): Promise<void>;
}

interface Person {
  id: string;
  username: string;
  email: string;
  token: string;
  client: ConfabClient;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

const password = 'correct-horse-battery';

export function backendContract(name: string, makeBackend: () => Promise<ContractBackend>): void {
  describe(`backend contract (${name})`, () => {
    let backend: ContractBackend;
    let counter = 0;

    beforeAll(async () => {
      backend = await makeBackend();
      // The first account of a server is its admin: take that seat, so the people below are not.
      await signUp('owner');
    });

    afterAll(async () => {
      for (const person of people) person.client.logout();
      await backend?.close();
    });

    const people: Person[] = [];
    const newClient = () =>
      new ConfabClient({ baseUrl: backend.baseUrl, ...(backend.fetch ? { fetch: backend.fetch } : {}), realtime: { autoConnect: false } });

    async function signUp(prefix: string): Promise<Person> {
      counter += 1;
      const username = `${prefix}_${counter}`;
      const client = newClient();
      const record = await client.register({ email: `${username}@Example.com`, username, password, passwordConfirm: password });
      const person = { id: record.id, username, email: `${username}@example.com`, token: client.pb.authStore.token, client };
      people.push(person);
      return person;
    }

    /** A request in the PocketBase wire: JSON (or a FormData) in, status and JSON out. */
    async function api(method: string, path: string, options: { as?: Person; json?: unknown; form?: FormData } = {}): Promise<Answer> {
      const headers: Record<string, string> = {};
      if (options.as) headers['Authorization'] = options.as.token;
      let body: BodyInit | undefined;
      if (options.form) body = options.form;
      else if (options.json !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(options.json);
      }
      const send = backend.fetch ?? fetch;
      const response = await send(`${backend.baseUrl}${path}`, { method, headers, body });
      const text = await response.text();
      return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
    }

    const notFound = { status: 404, body: { status: 404, message: "The requested resource wasn't found.", data: {} } };

    /** A chat of `owner` with `members` from the start (members added later would get system lines). */
    async function chatOf(owner: Person, chatName: string, members: Person[] = []): Promise<string> {
      const participants = members.map((member) => member.id);
      const created = await api('POST', '/api/collections/chats/records', { as: owner, json: { name: chatName, ...(participants.length > 0 ? { participants } : {}) } });
      expect(created.status).toBe(200);
      return String(created.body['id']);
    }

    describe('accounts', () => {
      it('signs up with the owner view of the record, and signs in', async () => {
        const ann = await signUp('ann');
        const me = await api('POST', '/api/collections/users/auth-with-password', { json: { identity: ann.username, password } });
        expect(me.status).toBe(200);
        expect(me.body['token']).toEqual(expect.any(String));
        expect(me.body['record']).toMatchObject({
          id: ann.id,
          collectionId: '_pb_users_auth_',
          collectionName: 'users',
          username: ann.username,
          email: ann.email,
          type: 'user',
          is_admin: false,
        });
        await expect(newClient().login(ann.email, password)).resolves.toMatchObject({ id: ann.id });
      });

      it("answers a wrong password with PocketBase's 400", async () => {
        const ann = await signUp('ann');
        const wrong = await api('POST', '/api/collections/users/auth-with-password', { json: { identity: ann.username, password: 'not-the-password' } });
        expect(wrong).toEqual({ status: 400, body: { status: 400, message: 'Failed to authenticate.', data: {} } });
        await expect(newClient().login(ann.username, 'not-the-password')).rejects.toMatchObject({ status: 400 });
      });

      it('refuses a username or e-mail already taken, with the field errors', async () => {
        const ann = await signUp('ann');
        const again = await api('POST', '/api/collections/users/records', {
          json: { username: ann.username, email: ann.email.toUpperCase(), password, passwordConfirm: password },
        });
        expect(again.status).toBe(400);
        expect(again.body).toMatchObject({
          message: 'Failed to create record.',
          data: {
            username: { code: 'validation_not_unique', message: 'The username is invalid or already in use.' },
            email: { code: 'validation_not_unique', message: 'The email is invalid or already in use.' },
          },
        });
      });

      it('changes only one’s own record', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const renamed = await api('PATCH', `/api/collections/users/records/${ann.id}`, { as: ann, json: { name: 'Ann A.' } });
        expect(renamed).toMatchObject({ status: 200, body: { id: ann.id, name: 'Ann A.', username: ann.username } });
        expect(await api('PATCH', `/api/collections/users/records/${ann.id}`, { as: bob, json: { name: 'Mallory' } })).toEqual(notFound);
      });
    });

    describe('chats', () => {
      it('creates a chat whose creator is its participant and admin', async () => {
        const ann = await signUp('ann');
        const created = await api('POST', '/api/collections/chats/records', { as: ann, json: { name: '  Launch  ', description: 'Ship it' } });
        expect(created.status).toBe(200);
        expect(created.body).toMatchObject({
          collectionId: 'pbc_3861817060',
          collectionName: 'chats',
          name: 'Launch',
          description: 'Ship it',
          creator: ann.id,
          participants: [ann.id],
          admins: [ann.id],
          agent_permissions: { confab_agents: true, developer_agents: false, agents_may_read_files: false },
          auto_route_enabled: false,
          auto_route_agent: '',
        });
        expect(created.body['id']).toMatch(/^[a-z0-9]{15}$/);
        expect(created.body['email_address']).toMatch(/^launch-[a-z0-9]{6}$/);
      });

      it('refuses a blank name with the field error', async () => {
        const ann = await signUp('ann');
        const blank = await api('POST', '/api/collections/chats/records', { as: ann, json: { name: '   ' } });
        expect(blank).toEqual({
          status: 400,
          body: { status: 400, message: 'Failed to create record.', data: { name: { code: 'validation_required', message: 'Cannot be blank.' } } },
        });
      });

      it('shows a chat only to its participants', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Private');
        const bobs = await api('GET', '/api/collections/chats/records?page=1&perPage=30&sort=-updated', { as: bob });
        expect(bobs.status).toBe(200);
        expect((bobs.body['items'] as Array<{ id: string }>).map((chat) => chat.id)).not.toContain(chatId);
        expect(await api('GET', `/api/collections/chats/records/${chatId}`, { as: bob })).toEqual(notFound);
        await expect(ann.client.chats.list()).resolves.toEqual(expect.arrayContaining([expect.objectContaining({ id: chatId, name: 'Private' })]));
      });

      it('lets an admin add participants, who then see the chat, its members expanded', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Team', [bob]);
        const seen = await api('GET', `/api/collections/chats/records/${chatId}?expand=participants`, { as: bob });
        expect(seen.status).toBe(200);
        expect(seen.body).toMatchObject({ participants: [ann.id, bob.id], admins: [ann.id] });
        const expanded = (seen.body['expand'] as { participants: Array<{ id: string; username: string }> }).participants;
        expect(expanded.map((user) => [user.id, user.username])).toEqual([
          [ann.id, ann.username],
          [bob.id, bob.username],
        ]);
      });

      it('answers 404 to a participant who is not an admin editing or deleting the chat', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Team', [bob]);
        expect(await api('PATCH', `/api/collections/chats/records/${chatId}`, { as: bob, json: { name: 'Mine now' } })).toEqual(notFound);
        expect(await api('DELETE', `/api/collections/chats/records/${chatId}`, { as: bob })).toEqual(notFound);
        const outsider = await signUp('eve');
        expect(await api('PATCH', `/api/collections/chats/records/${chatId}`, { as: outsider, json: { name: 'Mine now' } })).toEqual(notFound);
        const edited = await api('PATCH', `/api/collections/chats/records/${chatId}`, { as: ann, json: { name: ' Renamed ' } });
        expect(edited).toMatchObject({ status: 200, body: { id: chatId, name: 'Renamed' } });
      });

      it("keeps agent settings to the chat's admins, agents reading files off until one allows it", async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Files', [bob]);
        const everything = { agent_permissions: { confab_agents: true, developer_agents: true, agents_may_read_files: true } };
        expect(await api('PATCH', `/api/collections/chats/records/${chatId}`, { as: bob, json: everything })).toEqual(notFound);
        const unchanged = await api('GET', `/api/collections/chats/records/${chatId}`, { as: bob });
        expect(unchanged.body['agent_permissions']).toEqual({ confab_agents: true, developer_agents: false, agents_may_read_files: false });
        // What is left out takes its default, as the server reads the whole setting.
        const allowed = await api('PATCH', `/api/collections/chats/records/${chatId}`, { as: ann, json: { agent_permissions: { agents_may_read_files: true } } });
        expect(allowed).toMatchObject({ status: 200, body: { agent_permissions: { confab_agents: true, developer_agents: false, agents_may_read_files: true } } });
      });

      it('lets an admin delete the chat', async () => {
        const ann = await signUp('ann');
        const chatId = await chatOf(ann, 'Short-lived');
        expect(await api('DELETE', `/api/collections/chats/records/${chatId}`, { as: ann })).toEqual({ status: 204, body: {} });
        expect(await api('GET', `/api/collections/chats/records/${chatId}`, { as: ann })).toEqual(notFound);
      });

      it('lets a participant leave, after which the chat is gone for them', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Team', [bob]);
        expect(await api('POST', `/api/chats/${chatId}/leave`, { as: bob })).toEqual({ status: 204, body: {} });
        expect(await api('GET', `/api/collections/chats/records/${chatId}`, { as: bob })).toEqual(notFound);
        const again = await api('POST', `/api/chats/${chatId}/leave`, { as: bob });
        expect(again).toEqual({ status: 404, body: { status: 404, message: 'Chat not found', data: {} } });
      });
    });

    describe('unread state', () => {
      /** Polls an answer until it matches: the server notes the author's position and the mentions just after a send. */
      async function eventually(read: () => Promise<Answer>, expected: Record<string, unknown>): Promise<void> {
        const deadline = Date.now() + 5_000;
        let last: Answer | undefined;
        while (Date.now() < deadline) {
          last = await read();
          if (Object.entries(expected).every(([key, value]) => last?.body[key] === value)) return;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        expect(last?.body).toMatchObject(expected);
      }

      it("answers each person's read state in the chat records, and moves it with /read and /mute", async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Launch Plan', [bob]);
        for (const content of ['first', `look @${bob.username}`]) {
          expect((await api('POST', '/api/collections/messages/records', { as: ann, json: { chat: chatId, content } })).status).toBe(200);
        }
        const chatOfBob = () => api('GET', `/api/collections/chats/records/${chatId}`, { as: bob });
        await eventually(chatOfBob, { last_seq: 2, last_read_seq: 0, unread_count: 2, mention_count: 1, muted: false });
        await eventually(() => api('GET', `/api/collections/chats/records/${chatId}`, { as: ann }), { last_read_seq: 2, unread_count: 0, mention_count: 0 });

        expect(await api('POST', `/api/chats/${chatId}/read`, { as: bob, json: { seq: 1 } })).toEqual({
          status: 200,
          body: { chat_id: chatId, last_read_seq: 1, unread_count: 1, mention_count: 1, muted: false, notify_level: 'mentions' },
        });
        expect((await api('POST', `/api/chats/${chatId}/read`, { as: bob, json: { seq: 0 } })).body).toMatchObject({ last_read_seq: 1 });
        expect(await api('POST', `/api/chats/${chatId}/mute`, { as: bob, json: { muted: true } })).toEqual({
          status: 200,
          body: { chat_id: chatId, last_read_seq: 1, unread_count: 1, mention_count: 1, muted: true, notify_level: 'mentions' },
        });
        expect((await chatOfBob()).body).toMatchObject({ unread_count: 1, muted: true });
      });

      it('refuses a bad seq or mute with the field, and strangers with 404', async () => {
        const ann = await signUp('ann');
        const eve = await signUp('eve');
        const chatId = await chatOf(ann, 'Quiet');
        expect(await api('POST', `/api/chats/${chatId}/read`, { as: ann, json: { seq: -1 } })).toEqual({
          status: 400,
          body: { status: 400, message: 'Failed to mark the chat read.', data: { seq: { code: 'validation_invalid_value', message: 'Must be a whole number of 0 or more.' } } },
        });
        expect(await api('POST', `/api/chats/${chatId}/mute`, { as: ann, json: { muted: 'yes' } })).toEqual({
          status: 400,
          body: { status: 400, message: 'Failed to change the chat.', data: { muted: { code: 'validation_invalid_value', message: 'Must be true or false.' } } },
        });
        expect(await api('POST', `/api/chats/${chatId}/read`, { as: eve, json: { seq: 0 } })).toEqual(notFound);
        expect(await api('POST', `/api/chats/${chatId}/mute`, { as: eve, json: { muted: true } })).toEqual(notFound);
      });

      it('keeps the client store in step: markRead and setMuted', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Store', [bob]);
        for (const content of ['one', 'two', 'three']) await api('POST', '/api/collections/messages/records', { as: ann, json: { chat: chatId, content } });
        await bob.client.chats.list();
        const listed = () => bob.client.store.getState().chats.find((chat) => chat.id === chatId);
        expect(listed()).toMatchObject({ last_seq: 3, last_read_seq: 0, unread_count: 3 });
        await bob.client.chats.markRead(chatId, 2);
        expect(listed()).toMatchObject({ last_read_seq: 2, unread_count: 1 });
        await bob.client.chats.setMuted(chatId, true);
        expect(listed()).toMatchObject({ last_read_seq: 2, unread_count: 1, muted: true });
        await bob.client.chats.list();
        expect(listed()).toMatchObject({ last_read_seq: 2, unread_count: 1, muted: true });
      });
    });

    describe('presence', () => {
      it('answers who of a chat is online to its participants only (nobody here has a socket open)', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const eve = await signUp('eve');
        const chatId = await chatOf(ann, 'Who is here', [bob]);
        expect(await api('GET', `/api/chats/${chatId}/presence`, { as: bob })).toEqual({ status: 200, body: { chat_id: chatId, online: [] } });
        expect(await api('GET', `/api/chats/${chatId}/presence`, { as: eve })).toEqual({ status: 404, body: { status: 404, message: 'Chat not found', data: {} } });
        expect((await api('GET', `/api/chats/${chatId}/presence`)).status).toBe(401);
        await bob.client.chats.list();
        expect(await bob.client.presence.loadChat(chatId)).toEqual([]);
        expect(bob.client.store.getState().onlineUserIds).toEqual([]);
      });
    });

    describe('notifications', () => {
      it("sets the caller's level of a chat, answered as the read state and carried on the chat record", async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const eve = await signUp('eve');
        const chatId = await chatOf(ann, 'Levels', [bob]);
        expect((await api('GET', `/api/collections/chats/records/${chatId}`, { as: bob })).body).toMatchObject({ notify_level: 'mentions' });
        expect(await api('POST', `/api/chats/${chatId}/notifications`, { as: bob, json: { level: 'all' } })).toEqual({
          status: 200,
          body: { chat_id: chatId, last_read_seq: 0, unread_count: 0, mention_count: 0, muted: false, notify_level: 'all' },
        });
        expect((await api('GET', `/api/collections/chats/records/${chatId}`, { as: bob })).body).toMatchObject({ notify_level: 'all' });
        expect((await api('GET', `/api/collections/chats/records/${chatId}`, { as: ann })).body).toMatchObject({ notify_level: 'mentions' });
        expect(await api('POST', `/api/chats/${chatId}/notifications`, { as: bob, json: { level: 'loud' } })).toEqual({
          status: 400,
          body: { status: 400, message: 'Failed to change the chat.', data: { level: { code: 'validation_invalid_value', message: 'Must be "all" or "mentions".' } } },
        });
        expect(await api('POST', `/api/chats/${chatId}/notifications`, { as: eve, json: { level: 'all' } })).toEqual(notFound);
        await bob.client.chats.list();
        await bob.client.chats.setNotifyLevel(chatId, 'mentions');
        expect(bob.client.store.getState().chats.find((chat) => chat.id === chatId)).toMatchObject({ notify_level: 'mentions' });
      });

      it("answers and changes the caller's e-mail switch", async () => {
        const ann = await signUp('ann');
        expect(await api('GET', '/api/notifications/settings', { as: ann })).toEqual({ status: 200, body: { email_notifications: true, email_available: true } });
        expect(await ann.client.notifications.setEmail(false)).toEqual({ email_notifications: false, email_available: true });
        expect(await ann.client.notifications.settings()).toEqual({ email_notifications: false, email_available: true });
        expect(await api('POST', '/api/notifications/settings', { as: ann, json: { email_notifications: 1 } })).toEqual({
          status: 400,
          body: {
            status: 400,
            message: 'Failed to change the notification settings.',
            data: { email_notifications: { code: 'validation_invalid_value', message: 'Must be true or false.' } },
          },
        });
        expect((await api('GET', '/api/notifications/settings')).status).toBe(401);
      });
    });

    describe('messages', () => {
      it('posts messages in order and lists them newest first, a page at a time', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Talk', [bob]);
        for (const content of ['one', 'two', ' three ']) {
          const posted = await api('POST', '/api/collections/messages/records', { as: ann, json: { chat: chatId, content } });
          expect(posted).toMatchObject({ status: 200, body: { collectionId: 'pbc_2605467279', collectionName: 'messages', chat: chatId, author: ann.id, content: content.trim(), message_type: 'regular' } });
        }
        const filter = encodeURIComponent(`chat = "${chatId}"`);
        const page = await api('GET', `/api/collections/messages/records?page=1&perPage=2&sort=-seq&filter=${filter}&expand=author`, { as: bob });
        expect(page.status).toBe(200);
        expect(page.body).toMatchObject({ page: 1, perPage: 2, totalItems: 3, totalPages: 2 });
        const items = page.body['items'] as Array<{ content: string; seq: number; expand: { author: { username: string } } }>;
        expect(items.map((item) => [item.content, item.seq])).toEqual([
          ['three', 3],
          ['two', 2],
        ]);
        expect(items[0]?.expand.author.username).toBe(ann.username);
        const older = await api('GET', `/api/collections/messages/records?page=1&perPage=30&sort=-seq&filter=${encodeURIComponent(`chat = "${chatId}" && seq < 2`)}`, { as: bob });
        expect((older.body['items'] as Array<{ content: string }>).map((item) => item.content)).toEqual(['one']);
      });

      it("takes message_type 'regular' (or none) from people and refuses the types only the server sets", async () => {
        const ann = await signUp('ann');
        const chatId = await chatOf(ann, 'Types');
        const regular = await api('POST', '/api/collections/messages/records', { as: ann, json: { chat: chatId, content: 'hi', message_type: 'regular' } });
        expect(regular).toMatchObject({ status: 200, body: { message_type: 'regular' } });
        const forged = await api('POST', '/api/collections/messages/records', { as: ann, json: { chat: chatId, content: 'From: the bank', message_type: 'email' } });
        expect(forged).toEqual({
          status: 400,
          body: {
            status: 400,
            message: 'Failed to create record.',
            data: { message_type: { code: 'validation_invalid_value', message: "Only the server sets message_type; messages people post are 'regular'." } },
          },
        });
      });

      it('keeps the messages of a chat from people outside it', async () => {
        const ann = await signUp('ann');
        const eve = await signUp('eve');
        const chatId = await chatOf(ann, 'Secret');
        await api('POST', '/api/collections/messages/records', { as: ann, json: { chat: chatId, content: 'hidden' } });
        const intruding = await api('POST', '/api/collections/messages/records', { as: eve, json: { chat: chatId, content: 'let me in' } });
        expect(intruding).toEqual({ status: 400, body: { status: 400, message: 'Failed to create record.', data: {} } });
        const filter = encodeURIComponent(`chat = "${chatId}"`);
        const listed = await api('GET', `/api/collections/messages/records?page=1&perPage=30&filter=${filter}`, { as: eve });
        const items = listed.status === 200 ? (listed.body['items'] as unknown[]) : [];
        expect(items).toEqual([]);
      });

      it('refuses blank content with the field error', async () => {
        const ann = await signUp('ann');
        const chatId = await chatOf(ann, 'Talk');
        const blank = await api('POST', '/api/collections/messages/records', { as: ann, json: { chat: chatId, content: '   ' } });
        expect(blank).toEqual({
          status: 400,
          body: { status: 400, message: 'Failed to create record.', data: { content: { code: 'validation_required', message: 'Cannot be blank.' } } },
        });
      });

      it('lets only the author delete a message', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Talk', [bob]);
        const posted = await api('POST', '/api/collections/messages/records', { as: ann, json: { chat: chatId, content: 'oops' } });
        const id = String(posted.body['id']);
        expect(await api('DELETE', `/api/collections/messages/records/${id}`, { as: bob })).toEqual(notFound);
        expect(await api('DELETE', `/api/collections/messages/records/${id}`, { as: ann })).toEqual({ status: 204, body: {} });
      });
    });

    describe('edits and deletions', () => {
      it('lets the author edit (edited_at set) and the author or a chat admin delete, keeping the row emptied', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Edits', [bob]);
        const post = async (as: Person, content: string) => String((await api('POST', '/api/collections/messages/records', { as, json: { chat: chatId, content } })).body['id']);
        const bobs = await post(bob, 'Lunch at 12?');
        const anns = await post(ann, 'Sure');
        const path = (id: string) => `/api/collections/messages/records/${id}`;

        const edited = await api('PATCH', path(bobs), { as: bob, json: { content: ' Lunch at 1? ' } });
        expect(edited).toMatchObject({ status: 200, body: { id: bobs, content: 'Lunch at 1?', deleted_at: '' } });
        expect(edited.body['edited_at']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(await api('PATCH', path(bobs), { as: ann, json: { content: 'hijack' } })).toEqual(notFound);
        expect(await api('PATCH', path(bobs), { as: bob, json: { content: '  ' } })).toEqual({
          status: 400,
          body: { status: 400, message: 'Failed to update record.', data: { content: { code: 'validation_required', message: 'Cannot be blank.' } } },
        });

        expect(await api('DELETE', path(anns), { as: bob })).toEqual(notFound);
        expect(await api('DELETE', path(bobs), { as: ann })).toEqual({ status: 204, body: {} });
        expect(await api('DELETE', path(bobs), { as: ann })).toEqual(notFound);
        expect(await api('PATCH', path(bobs), { as: bob, json: { content: 'back' } })).toEqual(notFound);
        const listed = await api('GET', `/api/collections/messages/records?filter=${encodeURIComponent(`chat = "${chatId}"`)}&sort=seq`, { as: bob });
        const items = listed.body['items'] as Array<Record<string, unknown>>;
        expect(items.map((item) => [item['seq'], item['content'], item['deleted_at'] !== ''])).toEqual([
          [1, '', true],
          [2, 'Sure', false],
        ]);
      });
    });

    describe('reactions', () => {
      it('adds and removes reactions idempotently for participants, with the summary in the answer and the records', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const eve = await signUp('eve');
        const chatId = await chatOf(ann, 'Reactions', [bob]);
        const posted = await api('POST', '/api/collections/messages/records', { as: ann, json: { chat: chatId, content: 'Ship it?' } });
        const id = String(posted.body['id']);
        const path = (emoji: string) => `/api/messages/${id}/reactions/${encodeURIComponent(emoji)}`;
        const bobUser = { id: bob.id, username: bob.username, name: '' };

        const added = await api('PUT', path('👍'), { as: bob });
        expect(added).toMatchObject({ status: 200, body: { chat_id: chatId, message_id: id, version: 1, reactions: [{ emoji: '👍', count: 1, users: [bobUser] }] } });
        expect(await api('PUT', path('👍'), { as: bob })).toMatchObject({ status: 200, body: { version: 1 } });
        expect(await api('PUT', path('🎉'), { as: ann })).toMatchObject({ status: 200, body: { version: 2 } });
        expect(await api('DELETE', path('🎉'), { as: ann })).toMatchObject({ status: 200, body: { version: 3, reactions: [{ emoji: '👍', count: 1 }] } });
        expect(await api('DELETE', path('🎉'), { as: ann })).toMatchObject({ status: 200, body: { version: 3 } });

        const listed = await api('GET', `/api/collections/messages/records?filter=${encodeURIComponent(`chat = "${chatId}"`)}`, { as: ann });
        expect((listed.body['items'] as unknown[])[0]).toMatchObject({ id, reactions: [{ emoji: '👍', count: 1, users: [bobUser] }], reactions_version: 3 });

        expect(await api('PUT', path('nope'), { as: bob })).toEqual({
          status: 400,
          body: { status: 400, message: reactionTexts.notOneEmoji, data: { emoji: { code: 'validation_invalid_value', message: reactionTexts.notOneEmoji } } },
        });
        expect(await api('PUT', path('👍'), { as: eve })).toMatchObject({ status: 404, body: { message: 'Message not found' } });
        expect((await api('PUT', path('👍'))).status).toBe(401);
      });

      it('keeps the client store in step: react shows at once and unreact takes it back', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Reacting', [bob]);
        const posted = await api('POST', '/api/collections/messages/records', { as: ann, json: { chat: chatId, content: 'Lunch?' } });
        const id = String(posted.body['id']);
        await bob.client.messages.open(chatId);
        const reactionsOf = () => bob.client.store.getState().messages.find((message) => message.message_id === id)?.reactions;
        await bob.client.messages.react(id, '🍕');
        expect(reactionsOf()).toEqual([{ emoji: '🍕', count: 1, users: [{ id: bob.id, username: bob.username, name: '' }] }]);
        await bob.client.messages.unreact(id, '🍕');
        expect(reactionsOf()).toBeUndefined();
        await expect(bob.client.messages.react(id, 'x')).rejects.toMatchObject({ status: 400, message: reactionTexts.notOneEmoji });
        bob.client.messages.closeChat(chatId);
      });
    });

    describe('replies', () => {
      it('stores reply_to (a reply to a reply joins the thread), quotes the original, counts replies, and lists a thread', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Replies', [bob]);
        const otherChat = await chatOf(bob, 'Elsewhere', []);
        const post = (as: Person, chat: string, content: string, replyTo?: string) =>
          api('POST', '/api/collections/messages/records', { as, json: { chat, content, ...(replyTo === undefined ? {} : { reply_to: replyTo }) } });
        const original = String((await post(ann, chatId, '**Lunch** at 12?\nor later')).body['id']);
        const first = await post(bob, chatId, 'Yes', original);
        expect(first).toMatchObject({ status: 200, body: { reply_to: original, reply_count: 0, reply_to_preview: { message_id: original, excerpt: 'Lunch at 12?' } } });
        const second = await post(ann, chatId, 'Great', String(first.body['id']));
        expect(second.body).toMatchObject({ reply_to: original });

        const foreign = String((await post(bob, otherChat, 'not yours')).body['id']);
        expect(await post(ann, chatId, 'hi', foreign)).toEqual({
          status: 400,
          body: { status: 400, message: 'Failed to create record.', data: { reply_to: { code: 'validation_invalid_value', message: 'Must be a message of this chat.' } } },
        });

        const filter = encodeURIComponent(`chat = "${chatId}" && reply_to = "${original}"`);
        const thread = await api('GET', `/api/collections/messages/records?filter=${filter}&sort=seq`, { as: bob });
        expect((thread.body['items'] as Array<Record<string, unknown>>).map((item) => item['content'])).toEqual(['Yes', 'Great']);
        const listed = await api('GET', `/api/collections/messages/records?filter=${encodeURIComponent(`chat = "${chatId}"`)}&sort=seq`, { as: bob });
        expect((listed.body['items'] as Array<Record<string, unknown>>)[0]).toMatchObject({ id: original, reply_to: '', reply_count: 2 });
      });
    });

    describe('invitations', () => {
      it('invites by e-mail; the invitee sees, accepts and joins', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Invited');
        const invited = await api('POST', '/api/invite-to-chat', { as: ann, json: { chat_id: chatId, email: bob.email.toUpperCase() } });
        expect(invited).toEqual({ status: 200, body: { success: true, status: 'invited', chat_id: chatId } });
        const pending = await bob.client.invitations.listPending();
        expect(pending).toEqual([expect.objectContaining({ chat: { id: chatId, name: 'Invited' }, invited_by: expect.objectContaining({ username: ann.username }) })]);
        await expect(ann.client.invitations.listPending()).resolves.toEqual([]);
        await expect(bob.client.invitations.acceptPending(pending[0]?.id ?? '')).resolves.toEqual({ chatId });
        await expect(bob.client.invitations.listPending()).resolves.toEqual([]);
        expect((await api('GET', `/api/collections/chats/records/${chatId}`, { as: bob })).status).toBe(200);
      });

      it('adds a user by username at once, and says when there is no such user', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Added');
        const added = await api('POST', '/api/invite-to-chat', { as: ann, json: { chat_id: chatId, username: bob.username } });
        expect(added).toEqual({ status: 200, body: { success: true, status: 'added', chat_id: chatId, user: { id: bob.id, username: bob.username, name: '' } } });
        expect((await api('GET', `/api/collections/chats/records/${chatId}`, { as: bob })).status).toBe(200);
        const ghost = await api('POST', '/api/invite-to-chat', { as: ann, json: { chat_id: chatId, username: 'nobody_here' } });
        expect(ghost).toEqual({ status: 404, body: { status: 404, message: 'User not found', data: {} } });
        const carol = await signUp('carol');
        const byMember = await api('POST', '/api/invite-to-chat', { as: bob, json: { chat_id: chatId, username: carol.username } });
        expect(byMember).toEqual({ status: 403, body: { status: 403, message: 'Only chat admins can invite people.', data: {} } });
        const byOutsider = await api('POST', '/api/invite-to-chat', { as: carol, json: { chat_id: chatId, username: carol.username } });
        expect(byOutsider).toEqual({ status: 404, body: { status: 404, message: 'Chat not found', data: {} } });
      });

      it('declines, and answers 404 for an invitation that is not one’s own', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Declined');
        await api('POST', '/api/invite-to-chat', { as: ann, json: { chat_id: chatId, email: bob.email } });
        const [invitation] = await bob.client.invitations.listPending();
        const byOther = await api('POST', `/api/my-invitations/${invitation?.id}/accept`, { as: ann });
        expect(byOther).toEqual({ status: 404, body: { status: 404, message: 'Invitation not found', data: {} } });
        expect(await api('POST', `/api/my-invitations/${invitation?.id}/decline`, { as: bob })).toEqual({ status: 204, body: {} });
        await expect(bob.client.invitations.listPending()).resolves.toEqual([]);
      });
    });

    describe('files', () => {
      const upload = (as: Person, chatId: string, file: File) => {
        const form = new FormData();
        form.append('chat', chatId);
        form.append('file', file);
        return api('POST', '/api/collections/files/records', { as, form });
      };

      it('uploads, lists with the uploader expanded, and lets only the uploader delete', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Files', [bob]);
        const uploaded = await upload(ann, chatId, new File(['hello'], 'Meeting Notes.txt', { type: 'text/plain' }));
        expect(uploaded).toMatchObject({
          status: 200,
          body: { collectionId: 'pbc_1307496212', collectionName: 'files', chat: chatId, uploaded_by: ann.id, original_name: 'Meeting Notes.txt', size: 5, mime_type: 'text/plain' },
        });
        expect(uploaded.body['file']).toMatch(/^meeting_notes_[a-z0-9]{10}\.txt$/);
        const listed = await api('GET', `/api/collections/files/records?page=1&perPage=30&sort=-created&expand=uploaded_by&filter=${encodeURIComponent(`chat = "${chatId}"`)}`, { as: bob });
        expect(listed.status).toBe(200);
        expect(listed.body['totalItems']).toBe(1);
        const [item] = listed.body['items'] as Array<{ id: string; expand: { uploaded_by: { username: string } } }>;
        expect(item).toMatchObject({ id: uploaded.body['id'], expand: { uploaded_by: { username: ann.username } } });
        expect(await api('DELETE', `/api/collections/files/records/${String(uploaded.body['id'])}`, { as: bob })).toEqual(notFound);
        expect(await api('DELETE', `/api/collections/files/records/${String(uploaded.body['id'])}`, { as: ann })).toEqual({ status: 204, body: {} });
      });

      it('refuses a file type outside the allowed list with the shared rule’s message', async () => {
        const ann = await signUp('ann');
        const chatId = await chatOf(ann, 'Files');
        const refused = await upload(ann, chatId, new File(['MZ'], 'setup.exe'));
        expect(refused.status).toBe(400);
        expect(refused.body).toMatchObject({ message: messages.unsupportedFileFormat('.exe'), data: { file: { code: 'validation_invalid_file_type' } } });
      });
    });

    describe('file messages and system lines', () => {
      const messagesOf = async (as: Person, chatId: string) =>
        (await api('GET', `/api/collections/messages/records?sort=seq&filter=${encodeURIComponent(`chat = "${chatId}"`)}`, { as })).body['items'] as Array<Record<string, unknown>>;

      it('posts a file message for an upload and marks it when the file is deleted', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Shared files', [bob]);
        const form = new FormData();
        form.append('chat', chatId);
        form.append('file', new File(['region,total\n'], 'sales.csv', { type: 'text/csv' }));
        const uploaded = await api('POST', '/api/collections/files/records', { as: ann, form });
        const fileId = String(uploaded.body['id']);
        const [card] = await messagesOf(bob, chatId);
        expect(card).toMatchObject({
          author: ann.id,
          message_type: 'file',
          content: 'shared sales.csv',
          seq: 1,
          file: { file_id: fileId, name: 'sales.csv', file: uploaded.body['file'], type: 'text/csv', size: 13 },
          system: null,
        });
        expect((await api('GET', `/api/collections/chats/records/${chatId}`, { as: bob })).body).toMatchObject({ unread_count: 1 });
        expect(await api('PATCH', `/api/collections/messages/records/${String(card?.['id'])}`, { as: ann, json: { content: 'changed' } })).toEqual(notFound);

        expect((await api('DELETE', `/api/collections/files/records/${fileId}`, { as: ann })).status).toBe(204);
        const [marked] = await messagesOf(bob, chatId);
        expect(marked).toMatchObject({ id: card?.['id'], file: { file_id: fileId, deleted: true } });
        expect(String(marked?.['updated']) > String(card?.['updated'])).toBe(true);
      });

      it('writes system lines for an addition and a rename, badging nobody caught up; nobody changes them', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Plans');
        await api('POST', '/api/invite-to-chat', { as: ann, json: { chat_id: chatId, username: bob.username } });
        expect((await api('PATCH', `/api/collections/chats/records/${chatId}`, { as: ann, json: { name: 'Q3 plans' } })).status).toBe(200);
        const lines = await messagesOf(bob, chatId);
        expect(lines.map((line) => [line['seq'], line['message_type'], line['content'], line['author']])).toEqual([
          [1, 'system', `${ann.username} added ${bob.username}`, ann.id],
          [2, 'system', `${ann.username} renamed the chat to Q3 plans`, ann.id],
        ]);
        expect(lines[0]?.['system']).toEqual({ kind: 'added', actor: { id: ann.id, name: ann.username }, subject: { id: bob.id, name: bob.username } });
        expect(lines[1]?.['system']).toEqual({ kind: 'renamed', actor: { id: ann.id, name: ann.username }, name: 'Q3 plans' });
        for (const person of [ann, bob]) {
          expect((await api('GET', `/api/collections/chats/records/${chatId}`, { as: person })).body).toMatchObject({ last_seq: 2, unread_count: 0 });
        }
        const path = `/api/collections/messages/records/${String(lines[0]?.['id'])}`;
        expect(await api('PATCH', path, { as: ann, json: { content: 'nothing happened' } })).toEqual(notFound);
        expect(await api('DELETE', path, { as: ann })).toEqual(notFound);
        const forged = await api('POST', '/api/collections/messages/records', { as: ann, json: { chat: chatId, content: 'bob left', message_type: 'system' } });
        expect(forged.status).toBe(400);
      });
    });

    describe('agents', () => {
      it("creates a developer agent with a key shown once, lists it as the user's, and finds it", async () => {
        const ann = await signUp('ann');
        const created = await api('POST', '/api/agents', { as: ann, json: { name: 'Zephyr Contract', description: 'Answers contracts' } });
        expect(created.status).toBe(200);
        expect(created.body['api_key']).toMatch(/^cfk_/);
        expect(created.body['agent']).toMatchObject({ name: 'Zephyr Contract', username: 'zephyr_contract', agent_type: 'developer-agent', created_by: ann.id, site_wide_available: true });
        const mine = await api('GET', '/api/agents/mine', { as: ann });
        // The user's own agents first; the server's hosted agents (if any) after them.
        const listed = mine.body['agents'] as Array<{ username: string; agent_type: string }>;
        expect(listed[0]?.username).toBe('zephyr_contract');
        expect(listed.filter((agent) => agent.agent_type !== 'confab-agent').map((agent) => agent.username)).toEqual(['zephyr_contract']);
        const found = await api('GET', '/api/agents/search?q=zephyr', { as: ann });
        expect(found.status).toBe(200);
        expect(found.body['agents']).toEqual([
          { id: (created.body['agent'] as { id: string }).id, name: 'Zephyr Contract', username: 'zephyr_contract', agent_type: 'developer-agent', description: 'Answers contracts', status: 'offline', created_by: ann.id },
        ]);
      });

      it('answers a bare @ in a chat (a blank search with chat_id) with the agents it permits', async () => {
        const ann = await signUp('ann');
        const created = await api('POST', '/api/agents', { as: ann, json: { name: 'Bare Contract' } });
        const chatId = await chatOf(ann, 'Bare');
        const allowed = await api('PATCH', `/api/collections/chats/records/${chatId}`, { as: ann, json: { agent_permissions: { confab_agents: true, developer_agents: true } } });
        expect(allowed.status).toBe(200);
        const bare = await api('GET', `/api/agents/search?q=&chat_id=${chatId}`, { as: ann });
        expect(bare.status).toBe(200);
        expect((bare.body['agents'] as Array<{ id: string }>).map((agent) => agent.id)).toContain((created.body['agent'] as { id: string }).id);
      });

      it('refuses a blank search', async () => {
        const ann = await signUp('ann');
        const blank = await api('GET', '/api/agents/search?q=%20', { as: ann });
        expect(blank).toEqual({
          status: 400,
          body: { status: 400, message: 'The search needs at least 1 character.', data: { q: { code: 'validation_required', message: 'Cannot be blank.' } } },
        });
      });
    });

    describe('drops', () => {
      it('publishes a drop, then likes and bookmarks toggle for each reader, each their own', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Launch');
        const created = await api('POST', '/api/drops', { as: ann, json: { chat_id: chatId, title: 'Contract launch plan', content: 'We ship on Monday. #launch' } });
        expect(created.status).toBe(200);
        expect(created.body).toMatchObject({ title: 'Contract launch plan', slug: 'contract-launch-plan', chat_id: chatId, chat_name: 'Launch', author_id: ann.id, can_delete: true, like_count: 0 });
        const id = String(created.body['id']);
        expect(await api('POST', `/api/drops/${id}/like`, { as: bob })).toEqual({ status: 200, body: { liked: true, like_count: 1 } });
        expect(await api('POST', `/api/drops/${id}/like`, { as: bob })).toEqual({ status: 200, body: { liked: false, like_count: 0 } });
        expect(await api('POST', `/api/drops/${id}/bookmark`, { as: bob })).toEqual({ status: 200, body: { bookmarked: true } });
        const bookmarks = await api('GET', '/api/drops/bookmarks?page=1&per_page=20', { as: bob });
        expect((bookmarks.body['drops'] as Array<{ id: string; is_bookmarked: boolean }>).map((drop) => [drop.id, drop.is_bookmarked])).toEqual([[id, true]]);
        expect(await api('POST', `/api/drops/${id}/bookmark`, { as: bob })).toEqual({ status: 200, body: { bookmarked: false } });
        const read = await api('GET', '/api/drops/contract-launch-plan', { as: bob });
        expect(read).toMatchObject({ status: 200, body: { id, is_liked: false, is_bookmarked: false, like_count: 0 } });
        // Likes and bookmarks are each reader's own: Bob's do not show as Ann's.
        expect(await api('POST', `/api/drops/${id}/like`, { as: bob })).toEqual({ status: 200, body: { liked: true, like_count: 1 } });
        expect(await api('POST', `/api/drops/${id}/bookmark`, { as: bob })).toEqual({ status: 200, body: { bookmarked: true } });
        expect(await api('GET', '/api/drops/contract-launch-plan', { as: ann })).toMatchObject({ status: 200, body: { is_liked: false, is_bookmarked: false, like_count: 1 } });
        expect(await api('GET', '/api/drops/contract-launch-plan', { as: bob })).toMatchObject({ status: 200, body: { is_liked: true, is_bookmarked: true, like_count: 1 } });
        const annBookmarks = await api('GET', '/api/drops/bookmarks?page=1&per_page=20', { as: ann });
        expect(annBookmarks.body['drops']).toEqual([]);
        expect(await api('POST', `/api/drops/${id}/like`, { as: ann })).toEqual({ status: 200, body: { liked: true, like_count: 2 } });
      });

      it('lists my bookmarks newest bookmark first, paged over a snapshot; one un-bookmarked leaves the later pages', async () => {
        const ann = await signUp('ann');
        const bob = await signUp('bob');
        const chatId = await chatOf(ann, 'Saved');
        const ids: string[] = [];
        for (const title of ['Saved one', 'Saved two', 'Saved three']) {
          ids.push(String((await api('POST', '/api/drops', { as: ann, json: { chat_id: chatId, title, content: `About ${title}.` } })).body['id']));
        }
        const [one, two, three] = ids;
        // Bookmarked in another order than published; a pause keeps their times apart.
        for (const id of [two, one, three]) {
          expect(await api('POST', `/api/drops/${id}/bookmark`, { as: bob })).toEqual({ status: 200, body: { bookmarked: true } });
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        const first = await api('GET', '/api/drops/bookmarks?page=1&per_page=2', { as: bob });
        expect(first.status).toBe(200);
        expect((first.body['drops'] as Array<{ id: string }>).map((drop) => drop.id)).toEqual([three, one]);
        expect(first.body).toMatchObject({ has_more: true, total_count: 3 });
        expect(await api('POST', `/api/drops/${two}/bookmark`, { as: bob })).toEqual({ status: 200, body: { bookmarked: false } });
        const second = await api('GET', `/api/drops/bookmarks?page=2&per_page=2&snapshot=${String(first.body['snapshot'])}`, { as: bob });
        expect(second.body).toMatchObject({ drops: [], has_more: false });
        const fresh = await api('GET', '/api/drops/bookmarks?page=1&per_page=2', { as: bob });
        expect((fresh.body['drops'] as Array<{ id: string }>).map((drop) => drop.id)).toEqual([three, one]);
        expect(fresh.body).toMatchObject({ has_more: false, total_count: 2 });
      });

      it('answers 404 for a drop that does not exist, and for a chat one is not in', async () => {
        const ann = await signUp('ann');
        const eve = await signUp('eve');
        expect(await api('GET', '/api/drops/no-such-drop', { as: ann })).toEqual({ status: 404, body: { status: 404, message: 'Drop not found', data: {} } });
        const chatId = await chatOf(ann, 'Private');
        const refused = await api('POST', '/api/drops', { as: eve, json: { chat_id: chatId, title: 'Not mine', content: 'Hello' } });
        expect(refused).toEqual({ status: 404, body: { status: 404, message: 'Chat not found', data: {} } });
      });
    });
  });
}
