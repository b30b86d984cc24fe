import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { createChat, failureOf, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { startTestServer, type TestServer } from './support/testServer';

/** Contract tests: the official `pocketbase` SDK, unchanged, against a real confab-server. */
const variants = await databaseVariants();

describe.each(variants)('record API contract with the pocketbase SDK ($name)', (variant) => {
  let testServer: TestServer;
  let ann: RegisteredUser;
  let bob: RegisteredUser;
  let carol: RegisteredUser;

  beforeAll(async () => {
    testServer = await startTestServer(variant);
    ann = await registerUser(testServer, { username: 'Ann_Smith', email: 'Ann@Example.test', name: 'Ann' });
    bob = await registerUser(testServer, { name: 'Bob' });
    carol = await registerUser(testServer);
  });

  afterAll(async () => {
    await testServer?.close();
  });

  describe('accounts', () => {
    it('registers with the owner view and never exposes secrets', async () => {
      expect(ann.record).toMatchObject({ username: 'Ann_Smith', email: 'ann@example.test', collectionName: 'users' });
      expect(ann.record.id).toMatch(/^[a-z0-9]{15}$/);
      expect(ann.record.created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/);
      for (const hidden of ['password', 'password_hash', 'token_key', 'tokenKey', 'passwordConfirm']) {
        expect(ann.record).not.toHaveProperty(hidden);
      }
      const rows = await testServer.probe.rows('select password_hash from users where id = $1', [ann.record.id]);
      expect(String(rows[0]?.['password_hash'])).toMatch(/^\$argon2id\$/);
    });

    it('makes the first account of a server an admin, and only that one', () => {
      expect(ann.record['is_admin']).toBe(true);
      expect(bob.record['is_admin']).toBe(false);
    });

    it('logs in by username in any case and by e-mail in any case', async () => {
      const byUsername = testServer.client();
      const auth = await byUsername.collection('users').authWithPassword('ann_smith', ann.password);
      expect(auth.record.id).toBe(ann.record.id);
      expect(auth.token.split('.')).toHaveLength(3);
      const byEmail = testServer.client();
      await byEmail.collection('users').authWithPassword('ANN@example.TEST', ann.password);
      expect(byEmail.authStore.record?.id).toBe(ann.record.id);
      expect(byEmail.authStore.isValid).toBe(true);
    });

    it('answers bad credentials with 400 "Failed to authenticate."', async () => {
      const failure = await failureOf(() => testServer.client().collection('users').authWithPassword('ann_smith', 'wrong password'));
      expect(failure).toEqual({ status: 400, response: { status: 400, message: 'Failed to authenticate.', data: {} } });
      const unknown = await failureOf(() => testServer.client().collection('users').authWithPassword('nobody_here', 'whatever1'));
      expect(unknown.response['message']).toBe('Failed to authenticate.');
    });

    it('refreshes a valid token, and answers 401 without one', async () => {
      const refreshed = await bob.pb.collection('users').authRefresh();
      expect(refreshed.record.id).toBe(bob.record.id);
      expect(refreshed.token).toEqual(expect.any(String));
      const failure = await failureOf(() => testServer.client().collection('users').authRefresh());
      expect(failure.status).toBe(401);
      expect(failure.response).toMatchObject({ status: 401, data: {} });
    });

    it('returns field errors with PocketBase codes', async () => {
      const guest = testServer.client().collection('users');
      const mismatch = await failureOf(() =>
        guest.create({ username: 'new_user_1', email: 'n1@example.test', password: 'password1', passwordConfirm: 'password2' }),
      );
      expect(mismatch.status).toBe(400);
      expect(mismatch.response['message']).toBe('Failed to create record.');
      expect(mismatch.response['data']).toEqual({ passwordConfirm: { code: 'validation_values_mismatch', message: expect.any(String) } });
      const taken = await failureOf(() =>
        guest.create({ username: 'ANN_SMITH', email: 'ann@EXAMPLE.test', password: 'password1', passwordConfirm: 'password1' }),
      );
      expect(taken.response['data']).toMatchObject({
        username: { code: 'validation_not_unique' },
        email: { code: 'validation_not_unique' },
      });
      const blank = await failureOf(() => guest.create({}));
      expect(blank.response['data']).toMatchObject({
        username: { code: 'validation_required' },
        email: { code: 'validation_required' },
        password: { code: 'validation_required' },
        passwordConfirm: { code: 'validation_required' },
      });
      const invalid = await failureOf(() =>
        guest.create({ username: 'a b', email: 'not-an-email', password: 'short', passwordConfirm: 'short' }),
      );
      expect(invalid.response['data']).toMatchObject({
        username: { code: 'validation_invalid_format' },
        email: { code: 'validation_is_email' },
        password: { code: 'validation_length_out_of_range' },
      });
    });

    it('lets the owner update profile fields, stores provider keys encrypted, and ignores the rest', async () => {
      const erin = await registerUser(testServer);
      const updated = await erin.pb.collection('users').update(erin.record.id, {
        name: 'Erin',
        openai_api_key_encrypted: 'sk-test-123',
        signup_completed: true,
        is_admin: true,
        email: 'stolen@example.test',
      });
      // The key never comes back in plaintext, only whether it is set.
      // signup_completed and is_admin belong to the server (docs/SECURITY.md A8).
      expect(updated).toMatchObject({ name: 'Erin', openai_api_key_set: true, gemini_api_key_set: false, signup_completed: false, is_admin: false });
      expect(JSON.stringify(updated)).not.toContain('sk-test-123');
      expect(updated['email']).toBe(erin.email);
      const stored = await testServer.probe.rows('select openai_api_key_encrypted from users where id = $1', [erin.record.id]);
      expect(String(stored[0]?.['openai_api_key_encrypted'])).not.toContain('sk-test-123');
      const taken = await failureOf(() => erin.pb.collection('users').update(erin.record.id, { username: bob.username.toUpperCase() }));
      expect(taken.response['data']).toMatchObject({ username: { code: 'validation_not_unique' } });
    });

    it('changes a password with oldPassword and revokes earlier tokens', async () => {
      const frank = await registerUser(testServer);
      const earlierToken = frank.pb.authStore.token;
      const wrongOld = await failureOf(() =>
        frank.pb.collection('users').update(frank.record.id, { oldPassword: 'nope', password: 'brand new 1', passwordConfirm: 'brand new 1' }),
      );
      expect(wrongOld.response['data']).toMatchObject({ oldPassword: { code: 'validation_invalid_value' } });
      await frank.pb.collection('users').update(frank.record.id, {
        oldPassword: frank.password, password: 'brand new 1', passwordConfirm: 'brand new 1',
      });
      const stale = testServer.client();
      stale.authStore.save(earlierToken, frank.record);
      expect((await failureOf(() => stale.collection('users').authRefresh())).status).toBe(401);
      await testServer.client().collection('users').authWithPassword(frank.username, 'brand new 1');
    });

    it('shows other users only their public fields, and only when they share a chat', async () => {
      const missing = await failureOf(() => bob.pb.collection('users').getOne(carol.record.id));
      expect(missing.status).toBe(404);
      await createChat(bob, { participants: [carol.record.id] });
      const seen = await bob.pb.collection('users').getOne(carol.record.id);
      expect(Object.keys(seen).sort()).toEqual(['collectionId', 'collectionName', 'created', 'id', 'name', 'type', 'updated', 'username']);
      const hiddenFilter = await failureOf(() => bob.pb.collection('users').getList(1, 10, { filter: 'email ~ "example"' }));
      expect(hiddenFilter.status).toBe(400);
    });
  });

  describe('chats', () => {
    it('creates with a trimmed name, the caller as creator, participant and admin', async () => {
      const chat = await bob.pb.collection('chats').create({ name: '  Planning  ', creator: carol.record.id });
      expect(chat).toMatchObject({ name: 'Planning', creator: bob.record.id, participants: [bob.record.id], admins: [bob.record.id] });
      const blank = await failureOf(() => bob.pb.collection('chats').create({ name: '   ' }));
      expect(blank.response['data']).toMatchObject({ name: { code: 'validation_required' } });
    });

    it('adds with participants+ (de-duplicated), removes with participants-, and expands as arrays', async () => {
      const chat = await createChat(bob, { name: 'Modifiers' });
      const added = await bob.pb.collection('chats').update(chat.id, { 'participants+': [carol.record.id, carol.record.id, bob.record.id] });
      expect(added['participants']).toEqual([bob.record.id, carol.record.id]);
      const prepended = await bob.pb.collection('chats').update(chat.id, { '+participants': ann.record.id }, { expand: 'participants' });
      expect(prepended['participants']).toEqual([ann.record.id, bob.record.id, carol.record.id]);
      expect((prepended.expand?.['participants'] as { username: string }[]).map((user) => user.username)).toEqual([
        ann.username, bob.username, carol.username,
      ]);
      const removed = await bob.pb.collection('chats').update(chat.id, { 'participants-': [ann.record.id] });
      expect(removed['participants']).toEqual([bob.record.id, carol.record.id]);
      const missing = await failureOf(() => bob.pb.collection('chats').update(chat.id, { 'participants+': ['nosuchuser0000'] }));
      expect(missing.response['data']).toMatchObject({ participants: { code: 'validation_missing_rel_records' } });
    });

    it('matches hostile values exactly through pb.filter', async () => {
      const hostileNames = [
        `it's "quoted"`, 'back\\slash\\', '100% sure', 'under_score', 'naïve café 日本語', 'emoji 🎉👩‍💻', `' || 1=1 --`, '%', '_',
      ];
      const created = new Map<string, string>();
      for (const name of hostileNames) created.set(name, (await createChat(carol, { name })).id);
      for (const name of hostileNames) {
        const found = await carol.pb.collection('chats').getFirstListItem(carol.pb.filter('name = {:name}', { name }));
        expect(found.id).toBe(created.get(name));
      }
      const quoted = await carol.pb.collection('chats').getFullList({ filter: carol.pb.filter('name ~ {:part}', { part: `'s "quo` }) });
      expect(quoted.map((chat) => chat.name)).toEqual([`it's "quoted"`]);
      const backslash = await carol.pb.collection('chats').getFullList({ filter: carol.pb.filter('name ~ {:part}', { part: 'k\\s' }) });
      expect(backslash.map((chat) => chat.name)).toEqual(['back\\slash\\']);
      const underscore = await carol.pb.collection('chats').getFullList({ filter: carol.pb.filter('name ~ {:part}', { part: '_' }) });
      expect(underscore.map((chat) => chat.name).sort()).toEqual(['_', 'under_score'].sort());
      const none = await failureOf(() => carol.pb.collection('chats').getFirstListItem(carol.pb.filter('name = {:name}', { name: 'absent' })));
      expect(none.status).toBe(404);
    });

    it('pages with getList and getFullList, sorts, skips totals, caps perPage and honours fields', async () => {
      const dave = await registerUser(testServer);
      for (const name of ['Charlie', 'alpha', 'Bravo', 'delta', 'Echo']) await createChat(dave, { name });
      const page = await dave.pb.collection('chats').getList(2, 2, { sort: 'name' });
      expect(page).toMatchObject({ page: 2, perPage: 2, totalItems: 5, totalPages: 3 });
      expect(page.items).toHaveLength(2);
      const all = await dave.pb.collection('chats').getFullList({ batch: 2, sort: '-created,name' });
      expect(all).toHaveLength(5);
      const skipped = await dave.pb.collection('chats').getList(1, 3, { skipTotal: true });
      expect(skipped).toMatchObject({ totalItems: -1, totalPages: -1, perPage: 3 });
      const capped = await dave.pb.collection('chats').getList(1, 5000);
      expect(capped.perPage).toBe(500);
      const trimmed = await dave.pb.collection('chats').getList(1, 1, { fields: 'id,name' });
      expect(Object.keys(trimmed.items[0] ?? {}).sort()).toEqual(['id', 'name']);
      const badSort = await failureOf(() => dave.pb.collection('chats').getList(1, 1, { sort: 'nonexistent' }));
      expect(badSort.status).toBe(400);
    });

    it('updates and deletes for admins, 404 for others', async () => {
      const chat = await createChat(bob, { name: 'Admin only', participants: [carol.record.id] });
      const renamed = await bob.pb.collection('chats').update(chat.id, { name: 'Renamed', description: 'Now described' });
      expect(renamed).toMatchObject({ name: 'Renamed', description: 'Now described' });
      expect((await failureOf(() => carol.pb.collection('chats').update(chat.id, { name: 'Nope' }))).status).toBe(404);
      expect((await failureOf(() => carol.pb.collection('chats').delete(chat.id))).status).toBe(404);
      expect(await bob.pb.collection('chats').delete(chat.id)).toBe(true);
      const gone = await failureOf(() => bob.pb.collection('chats').getOne(chat.id));
      expect(gone.response).toEqual({ status: 404, message: "The requested resource wasn't found.", data: {} });
    });

    it('lists chats by -updated with participants and admins expanded', async () => {
      const gina = await registerUser(testServer);
      const older = await createChat(gina, { name: 'Older', participants: [bob.record.id] });
      await createChat(gina, { name: 'Newer' });
      // Timestamps have millisecond resolution; keep the bump strictly later than 'Newer'.
      await new Promise((resolve) => setTimeout(resolve, 5));
      await postMessage(gina, older.id, 'bump');
      const list = await gina.pb.collection('chats').getFullList({ sort: '-updated', expand: 'participants,admins' });
      expect(list.map((chat) => chat.name)).toEqual(['Older', 'Newer']);
      expect((list[0]?.expand?.['participants'] as { id: string }[]).map((user) => user.id)).toEqual([gina.record.id, bob.record.id]);
      expect((list[0]?.expand?.['admins'] as { id: string }[]).map((user) => user.id)).toEqual([gina.record.id]);
    });

    it('answers a filter using @request with 403', async () => {
      const failure = await failureOf(() => bob.pb.collection('chats').getList(1, 5, { filter: '@request.auth.id != ""' }));
      expect(failure.status).toBe(403);
      expect(failure.response).toMatchObject({ status: 403, data: {} });
    });
  });

  describe('messages', () => {
    it('creates, lists in order with the author expanded, and stores only ciphertext', async () => {
      const chat = await createChat(bob, { name: 'Talk', participants: [carol.record.id] });
      const first = await postMessage(bob, chat.id, '  Hello there, secret plaintext  ');
      await postMessage(carol, chat.id, 'Second 🎉');
      expect(first).toMatchObject({ content: 'Hello there, secret plaintext', author: bob.record.id, chat: chat.id, message_type: 'regular' });
      const list = await carol.pb.collection('messages').getFullList({
        filter: carol.pb.filter('chat = {:chat}', { chat: chat.id }),
        sort: 'created',
        expand: 'author',
      });
      expect(list.map((message) => message['content'])).toEqual(['Hello there, secret plaintext', 'Second 🎉']);
      expect((list[0]?.expand?.['author'] as { username: string }).username).toBe(bob.username);
      expect(list[0]?.expand?.['author']).not.toHaveProperty('email');
      const stored = await testServer.probe.rows('select content_encrypted from messages where id = $1', [first.id]);
      const ciphertext = String(stored[0]?.['content_encrypted']);
      expect(ciphertext).not.toContain('secret plaintext');
      expect(ciphertext.startsWith('v1:')).toBe(true);
    });

    it('forces the author to the caller and validates the content', async () => {
      const chat = await createChat(bob, { participants: [carol.record.id] });
      const forged = await carol.pb.collection('messages').create({ chat: chat.id, author: bob.record.id, content: 'mine' });
      expect(forged['author']).toBe(carol.record.id);
      const blank = await failureOf(() => carol.pb.collection('messages').create({ chat: chat.id, encryptedContent: '   ' }));
      expect(blank.response['data']).toMatchObject({ encryptedContent: { code: 'validation_required' } });
      const long = await failureOf(() => carol.pb.collection('messages').create({ chat: chat.id, content: 'x'.repeat(10_001) }));
      expect(long.response['data']).toMatchObject({ content: { code: 'validation_max_text_constraint' } });
    });

    it('never stores a retried client_id twice', async () => {
      const chat = await createChat(bob, { participants: [carol.record.id] });
      const body = { chat: chat.id, content: 'once', client_id: 'retry-1' };
      const first = await bob.pb.collection('messages').create(body);
      const retried = await bob.pb.collection('messages').create(body);
      expect(retried.id).toBe(first.id);
      const fromCarol = await carol.pb.collection('messages').create(body);
      expect(fromCarol.id).not.toBe(first.id);
      const stored = await testServer.probe.rows('select count(*) as count from messages where chat = $1', [chat.id]);
      expect(Number(stored[0]?.['count'])).toBe(2);
    });

    it('returns an excerpt through fields and getOne with nested expand', async () => {
      const chat = await createChat(bob, { name: 'Excerpts', participants: [carol.record.id] });
      const message = await postMessage(bob, chat.id, '<p>A fairly long message body</p>');
      const viewed = await carol.pb.collection('messages').getOne(message.id, {
        expand: 'chat.creator',
        fields: 'id,content:excerpt(8,true),expand.chat.name,expand.chat.expand.creator.username',
      });
      expect(viewed).toEqual({
        id: message.id,
        content: 'A fairly...',
        expand: { chat: { name: 'Excerpts', expand: { creator: { username: bob.username } } } },
      });
    });

    it('refuses non-participants with 400 on create and 404 on view', async () => {
      const chat = await createChat(bob, { name: 'Private' });
      const message = await postMessage(bob, chat.id, 'private');
      const create = await failureOf(() => carol.pb.collection('messages').create({ chat: chat.id, content: 'intrude' }));
      expect(create.response).toEqual({ status: 400, message: 'Failed to create record.', data: {} });
      expect((await failureOf(() => carol.pb.collection('messages').getOne(message.id))).status).toBe(404);
      const list = await carol.pb.collection('messages').getList(1, 50, { filter: carol.pb.filter('chat = {:chat}', { chat: chat.id }) });
      expect(list.items).toEqual([]);
    });

    it('updates and deletes only the caller\'s own messages', async () => {
      const chat = await createChat(bob, { participants: [carol.record.id] });
      const message = await postMessage(carol, chat.id, 'draft');
      expect((await carol.pb.collection('messages').update(message.id, { content: 'final' }))['content']).toBe('final');
      expect((await failureOf(() => bob.pb.collection('messages').update(message.id, { content: 'hijack' }))).status).toBe(404);
      expect(await carol.pb.collection('messages').delete(message.id)).toBe(true);
    });
  });
});
