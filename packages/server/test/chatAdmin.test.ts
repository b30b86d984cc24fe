import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { createChat, failureOf, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { startTestServer, type TestServer } from './support/testServer';

/** Chat administration of docs/CONTRACTS.md "Record API additions for chats", on each database. */
const variants = await databaseVariants();

describe.each(variants)('chat administration ($name)', (variant) => {
  let testServer: TestServer;
  let ann: RegisteredUser;
  let bob: RegisteredUser;
  let carol: RegisteredUser;

  beforeAll(async () => {
    testServer = await startTestServer(variant, { mailDomain: 'mail.example.test' });
    [ann, bob, carol] = [await registerUser(testServer), await registerUser(testServer), await registerUser(testServer)];
  });

  afterAll(async () => {
    await testServer?.close();
  });

  it('creates with a unique email_address, an inbox_address on the mail domain and default agent permissions', async () => {
    const first = await createChat(ann, { name: 'Quarterly Plans!' });
    const second = await createChat(ann, { name: 'Quarterly Plans!' });
    expect(first['email_address']).toMatch(/^quarterly-plans-[a-z0-9]{6}$/);
    expect(second['email_address']).not.toBe(first['email_address']);
    expect(first['inbox_address']).toBe(`${String(first['email_address'])}@mail.example.test`);
    expect(first['agent_permissions']).toEqual({ confab_agents: true, developer_agents: false, agents_may_read_files: false });
    expect(first).toMatchObject({ auto_route_enabled: false, auto_route_agent: '', last_seq: 0 });
    const missing = await failureOf(() => ann.pb.collection('chats').create({ description: 'no name' }));
    expect(missing).toMatchObject({ status: 400, response: { data: { name: { code: 'validation_required' } } } });
  });

  it('stores agent permissions and auto-routing, and explains a malformed value', async () => {
    const chat = await createChat(ann);
    const updated = await ann.pb.collection('chats').update(chat.id, {
      agent_permissions: { developer_agents: true }, auto_route_enabled: true, auto_route_agent: ' deep ',
    });
    expect(updated).toMatchObject({
      agent_permissions: { confab_agents: true, developer_agents: true }, auto_route_enabled: true, auto_route_agent: 'deep',
    });
    const off = await ann.pb.collection('chats').update(chat.id, { agent_permissions: { confab_agents: false } });
    expect(off['agent_permissions']).toEqual({ confab_agents: false, developer_agents: false, agents_may_read_files: false });
    const files = await ann.pb.collection('chats').update(chat.id, { agent_permissions: { agents_may_read_files: true } });
    expect(files['agent_permissions']).toEqual({ confab_agents: true, developer_agents: false, agents_may_read_files: true });
    const bad = await failureOf(() => ann.pb.collection('chats').update(chat.id, { agent_permissions: 'everything' }));
    expect(bad.status).toBe(400);
    expect((bad.response['data'] as Record<string, { message: string }>)['agent_permissions']?.message).toContain('confab_agents');
  });

  it('promotes (joining the chat), demotes, removes (taking admin rights along), never the caller', async () => {
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const promoted = await ann.pb.collection('chats').update(chat.id, { 'admins+': [bob.record.id, carol.record.id] });
    expect(promoted['admins']).toEqual([ann.record.id, bob.record.id, carol.record.id]);
    expect(promoted['participants']).toEqual([ann.record.id, bob.record.id, carol.record.id]);
    const demoted = await bob.pb.collection('chats').update(chat.id, { 'admins-': ann.record.id });
    expect(demoted['admins']).toEqual([bob.record.id, carol.record.id]);
    const removed = await bob.pb.collection('chats').update(chat.id, { 'participants-': carol.record.id });
    expect(removed).toMatchObject({ participants: [ann.record.id, bob.record.id], admins: [bob.record.id] });
    const selfRemoval = await failureOf(() => bob.pb.collection('chats').update(chat.id, { 'participants-': bob.record.id }));
    expect(selfRemoval.response['data']).toEqual({
      participants: { code: 'validation_invalid_value', message: 'You cannot remove yourself from the chat.' },
    });
    const selfDemotion = await failureOf(() => bob.pb.collection('chats').update(chat.id, { admins: [] }));
    expect((selfDemotion.response['data'] as Record<string, { message: string }>)['admins']?.message).toMatch(/at least one admin/);
    expect((await failureOf(() => ann.pb.collection('chats').update(chat.id, { name: 'no longer admin' }))).status).toBe(404);
  });

  it('deletes as an admin: messages, file rows and files on disk go with it', async () => {
    const chat = await createChat(ann, { participants: [bob.record.id] });
    await postMessage(ann, chat.id, 'one');
    await postMessage(bob, chat.id, 'two');
    const directory = join(testServer.dataDir, 'files', chat.id);
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, 'notes.txt'), 'uploaded bytes');
    expect((await failureOf(() => bob.pb.collection('chats').delete(chat.id))).status).toBe(404);
    await ann.pb.collection('chats').delete(chat.id);
    expect(await testServer.probe.rows('select id from messages where chat = $1', [chat.id])).toEqual([]);
    expect(await testServer.probe.rows('select id from files where chat = $1', [chat.id])).toEqual([]);
    expect(existsSync(directory)).toBe(false);
  });
});
