import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentView, Mention } from '@confab/client/protocol';
import { interruptedReplyText } from '@confab/client/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentSocket, allowDeveloperAgents, createAgent } from './support/agents';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, type Frame, type TestSocket } from './support/wsClient';

/**
 * The agents platform on a real server (docs/CONTRACTS.md, Agents): agent management, keys, the
 * socket transport, mention routing with its notices and queue, invocation grants, streamed replies
 * and the in-process transport. Every case runs on SQLite and PostgreSQL.
 */
const variants = await databaseVariants();

describe.each(variants)('agents ($name)', (variant) => {
  let testServer: TestServer;
  let admin: RegisteredUser;
  let dev: RegisteredUser;
  let alice: RegisteredUser;
  const sockets: TestSocket[] = [];
  const track = (socket: TestSocket) => {
    sockets.push(socket);
    return socket;
  };
  const call = (method: string, path: string, user: RegisteredUser | undefined, body?: unknown) =>
    rawRequest(testServer.url, method, path, { ...(user === undefined ? {} : { token: user.pb.authStore.token }), ...(body === undefined ? {} : { body }) });
  const person = async (user: RegisteredUser) => track(await authenticatedSocket(testServer.url, user.pb.authStore.token));
  const agentOnline = async (apiKey: string) => {
    const { socket, answer } = await agentSocket(testServer.url, apiKey);
    track(socket);
    expect(answer.type).toBe('authSuccess');
    return { socket, answer };
  };
  /** A chat of Alice's with developer agents allowed, Alice's socket joined. */
  const aliceChat = async (name: string, developerAgents = true) => {
    const chat = await createChat(alice, { name });
    if (developerAgents) await allowDeveloperAgents(alice, chat.id);
    const socket = await person(alice);
    await socket.join(chat.id);
    return { chat, socket };
  };

  beforeAll(async () => {
    testServer = await startTestServer(variant, {
      hostedAgents: {
        helper: async (mention: Mention, reply) => {
          reply.status('thinking…');
          const stream = reply.stream();
          stream.write('hosted says: ');
          stream.write(mention.content);
          await stream.end();
        },
      },
    });
    admin = await registerUser(testServer);
    dev = await registerUser(testServer);
    alice = await registerUser(testServer);
  });

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
  });

  afterAll(async () => {
    await testServer?.close();
  });

  describe('management', () => {
    it('creates a developer agent with a derived username and a key shown once, stored only as a hash', async () => {
      const created = await createAgent(testServer.url, dev, { name: '  Echo Bot ', description: ' repeats ' });
      expect(created.agent).toMatchObject({ name: 'Echo Bot', username: 'echo_bot', description: 'repeats', agent_type: 'developer-agent', status: 'offline', site_wide_available: true, dev_room_id: '', created_by: dev.record.id });
      expect(created.api_key).toMatch(/^cfk_[A-Za-z0-9_-]{43}$/);
      const again = await createAgent(testServer.url, dev, { name: 'Echo Bot' });
      expect(again.agent.username).toBe('echo_bot_2');
      // The key is never answered again, and nowhere in the database or its files.
      const mine = await call('GET', '/api/agents/mine', dev);
      expect(mine.text).not.toContain(created.api_key);
      for (const table of ['users', 'agent_mentions']) {
        const rows = await testServer.probe.rows(`select * from ${table}`);
        expect(JSON.stringify(rows)).not.toContain(created.api_key);
        expect(JSON.stringify(rows)).not.toContain(created.api_key.slice(4));
      }
      if (variant.name === 'sqlite') {
        for (const file of readdirSync(testServer.dataDir).filter((name) => name.startsWith('confab.db'))) {
          const path = join(testServer.dataDir, file);
          if (statSync(path).isFile()) expect(readFileSync(path).includes(Buffer.from(created.api_key.slice(4)))).toBe(false);
        }
      }
    });

    it('validates names and usernames with field errors', async () => {
      const blank = await call('POST', '/api/agents', dev, { name: '   ' });
      expect(blank.status).toBe(400);
      expect((blank.body as { data: Record<string, unknown> }).data['name']).toMatchObject({ code: 'validation_required' });
      for (const username of ['Echo Bot', 'ab', 'deep', 'user_x', 'admin']) {
        const refused = await call('POST', '/api/agents', dev, { name: 'Named', username });
        expect(refused.status, username).toBe(400);
        expect(Object.keys((refused.body as { data: Record<string, unknown> }).data)).toEqual(['username']);
      }
      const guest = await call('POST', '/api/agents', undefined, { name: 'Anon' });
      expect(guest.status).toBe(401);
    });

    it('lists my agents and every hosted one; only the owner updates, rotates or deletes', async () => {
      const { agent } = await createAgent(testServer.url, dev, { name: 'Owned', username: 'owned_bot' });
      const hosted = await call('POST', '/api/admin/confab-agents', admin, { name: 'Helper', username: 'helper', description: 'in-process', type: 'confab-agent', site_wide_available: true });
      expect(hosted.status).toBe(200);
      const mine = (await call('GET', '/api/agents/mine', dev)).body as { agents: AgentView[] };
      expect(mine.agents.map((entry) => entry.username)).toContain('owned_bot');
      expect(mine.agents.find((entry) => entry.username === 'helper')).toMatchObject({ agent_type: 'confab-agent', status: 'active' });
      const others = (await call('GET', '/api/agents/mine', alice)).body as { agents: AgentView[] };
      expect(others.agents.map((entry) => entry.username)).not.toContain('owned_bot');
      for (const [method, path, body] of [['PATCH', `/api/agents/${agent.id}`, { description: 'taken' }], ['POST', `/api/agents/${agent.id}/rotate-key`, {}], ['DELETE', `/api/agents/${agent.id}`, undefined]] as const) {
        expect((await call(method, path, alice, body)).status, `${method} ${path}`).toBe(404);
      }
      const updated = await call('PATCH', `/api/agents/${agent.id}`, dev, { description: 'mine', site_wide_available: false });
      expect(updated.body).toMatchObject({ agent: { description: 'mine', site_wide_available: false } });
    });

    it('keeps hosted-agent management to server admins', async () => {
      expect((await call('GET', '/api/admin/confab-agents', alice)).status).toBe(403);
      expect((await call('POST', '/api/admin/confab-agents', alice, { name: 'Nope' })).status).toBe(403);
      const created = (await call('POST', '/api/admin/confab-agents', admin, { name: 'Temp Hosted' })).body as { agent: AgentView };
      expect(created.agent).toMatchObject({ username: 'temp_hosted', agent_type: 'confab-agent', status: 'active' });
      expect((await call('DELETE', `/api/admin/confab-agents/${created.agent.id}`, alice)).status).toBe(403);
      expect((await call('DELETE', `/api/admin/confab-agents/${created.agent.id}`, admin)).status).toBe(204);
      const listed = (await call('GET', '/api/admin/confab-agents', admin)).body as { agents: AgentView[] };
      expect(listed.agents.map((entry) => entry.username)).not.toContain('temp_hosted');
    });

    it('searches site-wide agents by name, username or type, narrowed to the types a chat permits', async () => {
      await createAgent(testServer.url, dev, { name: 'Weather Wizard', username: 'weather' });
      await createAgent(testServer.url, dev, { name: 'Weather Hidden', username: 'weather_hidden', site_wide_available: false });
      const found = (await call('GET', '/api/agents/search?q=WEATHER', alice)).body as { agents: AgentView[] };
      expect(found.agents.map((entry) => entry.username)).toEqual(['weather']);
      expect(Object.keys(found.agents[0] ?? {}).sort()).toEqual(['agent_type', 'created_by', 'description', 'id', 'name', 'status', 'username']);
      const byType = (await call('GET', '/api/agents/search?q=developer-agent', alice)).body as { agents: AgentView[] };
      expect(byType.agents.map((entry) => entry.username)).toContain('weather');
      const chat = await createChat(alice, { name: 'Only hosted' });
      const narrowed = (await call('GET', `/api/agents/search?q=e&chat_id=${chat.id}`, alice)).body as { agents: AgentView[] };
      expect(narrowed.agents.every((entry) => entry.agent_type === 'confab-agent')).toBe(true);
      expect((await call('GET', '/api/agents/search?q=%20%20', alice)).status).toBe(400);
      expect((await call('GET', `/api/agents/search?q=e&chat_id=${chat.id}`, dev)).status).toBe(404);
    });

    it('answers a bare @ in a chat (an empty query with chat_id) with every agent the chat permits, Confab agents first', async () => {
      await createAgent(testServer.url, dev, { name: 'Aardvark Helper', username: 'aardvark_helper' });
      const chat = await createChat(alice, { name: 'Bare at' });
      const bare = async () => ((await call('GET', `/api/agents/search?q=&chat_id=${chat.id}`, alice)).body as { agents: AgentView[] }).agents;
      const hostedOnly = await bare();
      expect(hostedOnly.length).toBeGreaterThan(0);
      expect(hostedOnly.every((entry) => entry.agent_type === 'confab-agent')).toBe(true);
      expect(hostedOnly.map((entry) => entry.username)).toEqual(expect.arrayContaining(['data', 'deep', 'drops', 'email', 'browse']));
      // The chat allows developer agents: they come after the Confab agents, at most 20 in all.
      await allowDeveloperAgents(alice, chat.id);
      const both = await bare();
      const types = both.map((entry) => entry.agent_type);
      expect(types).toContain('developer-agent');
      expect(types.indexOf('developer-agent')).toBeGreaterThan(types.lastIndexOf('confab-agent'));
      expect(both.length).toBeLessThanOrEqual(20);
      // No chat: a blank query is still refused; a chat the caller is not in is not found.
      expect((await call('GET', '/api/agents/search?q=', alice)).status).toBe(400);
      expect((await call('GET', `/api/agents/search?q=&chat_id=${chat.id}`, dev)).status).toBe(404);
    });

    it('refuses an agent named like a person, by their display name or username in any case, and creates nothing', async () => {
      const person = await registerUser(testServer, { name: 'Alice Liddell' });
      const before = await testServer.probe.count('users');
      for (const name of ['Alice Liddell', '  alice LIDDELL ', person.username, person.username.toUpperCase()]) {
        const refused = await call('POST', '/api/agents', dev, { name });
        expect(refused.status, name).toBe(400);
        expect(refused.body, name).toEqual({
          status: 400,
          message: 'Failed to create agent.',
          data: { name: { code: 'validation_name_of_person', message: 'A person here is called that. Please choose another name.' } },
        });
      }
      expect(await testServer.probe.count('users')).toBe(before);
      // A name that only contains a person's is no disguise: agents are marked wherever they show.
      expect((await call('POST', '/api/agents', dev, { name: 'Alice Liddell Helper' })).status).toBe(200);
    });

    it("shows an agent's created_by and dev_room_id to its owner only: records, expansions, search; and no filter probes them", async () => {
      const { agent, api_key } = await createAgent(testServer.url, dev, { name: 'Owner Only', username: 'owner_only' });
      const devRoom = ((await agentOnline(api_key)).answer['agent'] as { dev_room_id: string }).dev_room_id;
      expect(devRoom).toMatch(/^[a-z0-9]{15}$/);
      const listed = async (user: RegisteredUser) => {
        const query = `filter=${encodeURIComponent("username='owner_only'")}&expand=created_by,dev_room_id`;
        const list = await call('GET', `/api/collections/users/records?${query}`, user);
        const one = await call('GET', `/api/collections/users/records/${agent.id}?expand=created_by`, user);
        const found = await call('GET', '/api/agents/search?q=owner_only', user);
        expect([list.status, one.status, found.status]).toEqual([200, 200, 200]);
        return { list, one, found, record: (list.body as { items: Record<string, unknown>[] }).items[0], hit: (found.body as { agents: AgentView[] }).agents[0] };
      };
      const other = await listed(alice);
      expect(other.record).toMatchObject({ id: agent.id, type: 'developer-agent', created_by: '', dev_room_id: '' });
      expect(other.record?.['expand']).toBeUndefined();
      expect(other.hit).toMatchObject({ id: agent.id, created_by: '' });
      for (const answer of [other.list, other.one, other.found]) {
        expect(answer.text).not.toContain(dev.record.id);
        expect(answer.text).not.toContain(devRoom);
      }
      const owner = await listed(dev);
      expect(owner.record).toMatchObject({ created_by: dev.record.id, dev_room_id: devRoom });
      expect(owner.one.body).toMatchObject({ created_by: dev.record.id, expand: { created_by: { id: dev.record.id } } });
      expect(owner.hit).toMatchObject({ created_by: dev.record.id });
      // Filters and sorts would tell them anyway ("whose agents are these?", "whose room is this?").
      for (const probe of [`filter=${encodeURIComponent(`created_by='${dev.record.id}'`)}`, `filter=${encodeURIComponent(`dev_room_id='${devRoom}'`)}`, `filter=${encodeURIComponent("created_by.username~'m'")}`, 'sort=created_by']) {
        expect((await call('GET', `/api/collections/users/records?${probe}`, alice)).status, probe).toBe(400);
      }
    });
  });

  describe('connections', () => {
    it('refuses a wrong key with authError and 4001, and creates the dev room on the first connection', async () => {
      const { socket: bad, answer: refused } = await agentSocket(testServer.url, 'cfk_wrongwrongwrongwrongwrongwrongwrongwrongwro');
      expect(refused.type).toBe('authError');
      expect((await bad.closed).code).toBe(4001);
      const devSocket = await person(dev);
      const { agent, api_key } = await createAgent(testServer.url, dev, { name: 'Roomy' });
      const { answer } = await agentOnline(api_key);
      const identity = answer['agent'] as { id: string; dev_room_id: string };
      expect(identity.id).toBe(agent.id);
      expect(identity.dev_room_id).toMatch(/^[a-z0-9]{15}$/);
      const added = await devSocket.next((frame) => frame.type === 'chat_added');
      expect(added['chat']).toMatchObject({ id: identity.dev_room_id, name: 'Roomy dev room', participants: expect.arrayContaining([dev.record.id, agent.id]), admins: [dev.record.id] });
      expect(await devSocket.next((frame) => frame.type === 'agent_presence')).toMatchObject({ agent_id: agent.id, status: 'online' });
      const mine = (await call('GET', '/api/agents/mine', dev)).body as { agents: AgentView[] };
      expect(mine.agents.find((entry) => entry.id === agent.id)).toMatchObject({ status: 'online', dev_room_id: identity.dev_room_id });
      // A second connection keeps the same room.
      const { answer: second } = await agentOnline(api_key);
      expect((second['agent'] as { dev_room_id: string }).dev_room_id).toBe(identity.dev_room_id);
    });

    it('authenticates with the Authorization header on the upgrade too', async () => {
      const { api_key } = await createAgent(testServer.url, dev, { name: 'Header' });
      const socket = track(await (await import('./support/wsClient')).TestSocket.open(testServer.url, { authorization: `Bearer ${api_key}` }));
      expect((await socket.next((frame) => frame.type === 'authSuccess'))['agent']).toMatchObject({ username: 'header' });
    });

    it('ends a rotated or deleted key at once: sockets close 4001, HTTP answers 401', async () => {
      const { agent, api_key } = await createAgent(testServer.url, dev, { name: 'Rotor' });
      const { socket } = await agentOnline(api_key);
      const rotated = (await call('POST', `/api/agents/${agent.id}/rotate-key`, dev)).body as { api_key: string };
      expect(rotated.api_key).not.toBe(api_key);
      expect((await socket.closed).code).toBe(4001);
      expect((await rawRequest(testServer.url, 'GET', '/api/agent/me', { token: `Bearer ${api_key}` })).status).toBe(401);
      expect((await rawRequest(testServer.url, 'GET', '/api/agent/me', { token: `Bearer ${rotated.api_key}` })).body).toMatchObject({ agent: { id: agent.id } });
      const { socket: fresh } = await agentOnline(rotated.api_key);
      expect((await call('DELETE', `/api/agents/${agent.id}`, dev)).status).toBe(204);
      expect((await fresh.closed).code).toBe(4001);
      expect((await agentSocket(testServer.url, rotated.api_key)).answer.type).toBe('authError');
    });

    it('answers agent frames from a person, and malformed agent frames, with clear errors', async () => {
      const socket = await person(alice);
      socket.send({ type: 'stream_start', chat_id: 'x', stream_id: 's' });
      expect(await socket.nextOfType('error')).toMatchObject({ code: 'not_allowed' });
      const { api_key } = await createAgent(testServer.url, dev, { name: 'Strict' });
      const { socket: agent } = await agentOnline(api_key);
      for (const frame of [{ type: 'stream_start', stream_id: 's' }, { type: 'stream_append', stream_id: 's' }, { type: 'mention_ack' }, { type: 'agent_status', chat_id: 'c', text: 5 }, { type: 'stream_end', stream_id: 42 }]) {
        agent.send(frame);
        expect(await agent.nextOfType('error'), JSON.stringify(frame)).toMatchObject({ code: 'invalid_frame' });
      }
      agent.send({ type: 'stream_append', stream_id: 'never-opened', text: 'x' });
      expect(await agent.nextOfType('error')).toMatchObject({ code: 'unknown_stream', ref: 'never-opened' });
    });
  });

  describe('routing', () => {
    it('delivers a mention with the message, the chat, the author and context; the agent replies once invoked', async () => {
      const { agent, api_key } = await createAgent(testServer.url, dev, { name: 'Replier' });
      const { socket: agentSide } = await agentOnline(api_key);
      const { chat, socket: aliceSide } = await aliceChat('Routing');
      await postMessage(alice, chat.id, 'some context first');
      // Not invoked yet: refused with not_invoked and the client_id as ref, over the socket and HTTP.
      agentSide.send({ type: 'send_message', chat_id: chat.id, content: 'unasked', client_id: 'early' });
      expect(await agentSide.nextOfType('error')).toMatchObject({ code: 'not_invoked', ref: 'early' });
      expect((await rawRequest(testServer.url, 'POST', '/api/agent/messages', { token: `Bearer ${api_key}`, body: { chat_id: chat.id, content: 'unasked' } })).status).toBe(403);
      await postMessage(alice, chat.id, `hey @${agent.username.toUpperCase()} what's up?`);
      const { mention } = (await agentSide.nextOfType('mention')) as unknown as { mention: Mention };
      expect(mention).toMatchObject({ reason: 'mention', chat_id: chat.id, chat_name: 'Routing', content: `hey @${agent.username.toUpperCase()} what's up?`, author_id: alice.record.id, author_username: alice.username, author_is_agent: false, hop: 1 });
      expect(mention.context.map((message) => message.content)).toContain('some context first');
      agentSide.send({ type: 'mention_ack', mention_id: mention.mention_id });
      agentSide.send({ type: 'send_message', chat_id: chat.id, content: 'hello from the agent', client_id: 'r1', mention_id: mention.mention_id });
      const reply = await aliceSide.next((frame) => frame.type === 'new_message' && (frame['message'] as { content: string }).content === 'hello from the agent');
      expect(reply['message']).toMatchObject({ author_id: agent.id, is_agent: true });
      // The agent is no participant, yet its reply is stored like any message, encrypted.
      const stored = await testServer.probe.rows('select content_encrypted from messages where author = $1', [agent.id]);
      expect(stored).toHaveLength(1);
      expect(String(stored[0]?.['content_encrypted'])).not.toContain('hello from the agent');
    });

    it('tells the sender why not: developer agents off, dev-room only, confab agents off; a word naming no agent is left alone', async () => {
      const { agent } = await createAgent(testServer.url, dev, { name: 'Gated' });
      const { agent: roomOnly } = await createAgent(testServer.url, dev, { name: 'Room Only', site_wide_available: false });
      const { chat, socket } = await aliceChat('Gates', false);
      const aliceUser = await person(alice);
      await postMessage(alice, chat.id, `@${agent.username} please`);
      expect(await aliceUser.nextOfType('agent_notice')).toMatchObject({ chat_id: chat.id, agent_username: agent.username, reason: 'developer_agents_off', text: 'Developer agents are off in this chat. A chat admin can allow them in Chat Options.' });
      await allowDeveloperAgents(alice, chat.id);
      await postMessage(alice, chat.id, `@${roomOnly.username} please`);
      expect(await aliceUser.nextOfType('agent_notice')).toMatchObject({ reason: 'not_available', text: `@${roomOnly.username} is only available in its dev room.` });
      await alice.pb.collection('chats').update(chat.id, { agent_permissions: { confab_agents: false, developer_agents: true } });
      await postMessage(alice, chat.id, '@helper please');
      expect(await aliceUser.nextOfType('agent_notice')).toMatchObject({ reason: 'confab_agents_off', text: 'Confab agents are off in this chat. A chat admin can allow them in Chat Options.' });
      await postMessage(alice, chat.id, '@nobody_here and @' + alice.username);
      expect(await aliceUser.collect((frame) => frame.type === 'agent_notice', 300)).toEqual([]);
      await socket.close();
    });

    it("names the chat rule that refuses an agent's post in its owner's chat, and only there", async () => {
      const { api_key } = await createAgent(testServer.url, dev, { name: 'Ruled Out' });
      const { agent: roomOnly, api_key: roomOnlyKey } = await createAgent(testServer.url, dev, { name: 'Ruled Room', site_wide_available: false });
      const post = (apiKey: string, chatId: string) =>
        rawRequest(testServer.url, 'POST', '/api/agent/messages', { token: `Bearer ${apiKey}`, body: { chat_id: chatId, content: 'unasked' } });
      const ownChat = await createChat(dev, { name: 'Agents off' });
      const off = await post(api_key, ownChat.id);
      expect(off.status).toBe(403);
      expect(off.body).toMatchObject({ message: 'Developer agents are off in this chat, so this agent may not post here. A chat admin can allow them in Chat Options.' });
      await allowDeveloperAgents(dev, ownChat.id);
      const notSiteWide = await post(roomOnlyKey, ownChat.id);
      expect(notSiteWide.status).toBe(403);
      expect(notSiteWide.body).toMatchObject({ message: `@${roomOnly.username} is only available in its dev room, so it may not post here. Its owner can make it available site-wide.` });
      const notMentioned = await post(api_key, ownChat.id);
      expect(notMentioned.body).toMatchObject({ message: 'This agent may post only where it was mentioned in the last 10 minutes, in its dev room, or in a chat it belongs to.' });
      // A chat its owner is not in: the key learns nothing about it, not even its rules.
      const { chat: alicesOff } = await aliceChat('Not yours', false);
      const elsewhere = await post(api_key, alicesOff.id);
      expect(elsewhere.status).toBe(403);
      expect(elsewhere.body).toMatchObject({ message: 'This agent may post only where it was mentioned in the last 10 minutes, in its dev room, or in a chat it belongs to.' });
    });

    it('queues a mention for an offline agent, tells the sender, and delivers it once on connect', async () => {
      const { agent, api_key } = await createAgent(testServer.url, dev, { name: 'Sleeper' });
      const { chat } = await aliceChat('Queue');
      const aliceUser = await person(alice);
      const posted = await postMessage(alice, chat.id, `@${agent.username} are you there?`);
      expect(await aliceUser.nextOfType('agent_notice')).toMatchObject({ reason: 'offline', message_id: posted.id, text: `@${agent.username} is offline. Your message will be delivered if it reconnects within 10 minutes.` });
      const { socket: first } = await agentOnline(api_key);
      const { mention } = (await first.nextOfType('mention')) as unknown as { mention: Mention };
      expect(mention.message_id).toBe(posted.id);
      await first.close();
      // Not acknowledged: sent again on reconnect; acknowledged: never again.
      const { socket: second } = await agentOnline(api_key);
      const again = (await second.nextOfType('mention')) as unknown as { mention: Mention };
      expect(again.mention.mention_id).toBe(mention.mention_id);
      second.send({ type: 'mention_ack', mention_id: mention.mention_id });
      await new Promise((resolve) => setTimeout(resolve, 100));
      await second.close();
      const { socket: third } = await agentOnline(api_key);
      expect(await third.collect((frame) => frame.type === 'mention', 300)).toEqual([]);
    });

    it('auto-routes a person’s message that mentions no agent to the chat’s auto-route agent', async () => {
      const { agent, api_key } = await createAgent(testServer.url, dev, { name: 'Router' });
      const { socket: agentSide } = await agentOnline(api_key);
      const { chat } = await aliceChat('Auto');
      await alice.pb.collection('chats').update(chat.id, { auto_route_enabled: true, auto_route_agent: agent.username });
      await postMessage(alice, chat.id, 'no mention at all');
      const { mention } = (await agentSide.nextOfType('mention')) as unknown as { mention: Mention };
      expect(mention).toMatchObject({ reason: 'auto_route', content: 'no mention at all' });
    });

    it('always lets an agent work in its own dev room', async () => {
      const { agent, api_key } = await createAgent(testServer.url, dev, { name: 'Home', site_wide_available: false });
      const { socket: agentSide, answer } = await agentOnline(api_key);
      const devRoom = (answer['agent'] as { dev_room_id: string }).dev_room_id;
      await postMessage(dev, devRoom, `@${agent.username} hi`);
      expect(((await agentSide.nextOfType('mention')) as unknown as { mention: Mention }).mention.chat_id).toBe(devRoom);
      agentSide.send({ type: 'send_message', chat_id: devRoom, content: 'unprompted but at home', client_id: 'h1' });
      expect(await agentSide.nextMessage(devRoom)).toMatchObject({ content: 'unprompted but at home' });
    });

    it('stops two agents that mention each other after 3 hops', async () => {
      const ping = await createAgent(testServer.url, dev, { name: 'Ping', username: 'ping_bot' });
      const pong = await createAgent(testServer.url, dev, { name: 'Pong', username: 'pong_bot' });
      const { socket: pingSide } = await agentOnline(ping.api_key);
      const { socket: pongSide } = await agentOnline(pong.api_key);
      const { chat } = await aliceChat('Loop');
      const bounce = (socket: TestSocket, other: string, label: string) => {
        socket.socket.on('message', (data) => {
          const frame = JSON.parse(data.toString()) as Frame;
          if (frame.type !== 'mention') return;
          const mention = (frame as unknown as { mention: Mention }).mention;
          socket.send({ type: 'send_message', chat_id: mention.chat_id, content: `@${other} ${label} at hop ${mention.hop}`, client_id: `${label}-${mention.hop}`, mention_id: mention.mention_id });
        });
      };
      bounce(pingSide, 'pong_bot', 'ping');
      bounce(pongSide, 'ping_bot', 'pong');
      await postMessage(alice, chat.id, '@ping_bot start');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const hops = await testServer.probe.rows('select hop from agent_mentions where chat = $1 order by hop', [chat.id]);
      expect(hops.map((row) => Number(row['hop']))).toEqual([1, 2, 3]);
      const contents = (await alice.pb.collection('messages').getFullList({ filter: `chat='${chat.id}'`, sort: 'seq' })).map((message) => message['content']);
      expect(contents).toEqual(['@ping_bot start', '@pong_bot ping at hop 1', '@ping_bot pong at hop 2', '@pong_bot ping at hop 3']);
    });
  });

  describe('replies', () => {
    it('streams a reply every participant sees grow, catches up a late joiner, and stores it once', async () => {
      const { agent, api_key } = await createAgent(testServer.url, dev, { name: 'Streamer' });
      const { socket: agentSide } = await agentOnline(api_key);
      const { chat, socket: aliceSide } = await aliceChat('Streams');
      const bob = await registerUser(testServer);
      await alice.pb.collection('chats').update(chat.id, { 'participants+': bob.record.id });
      await postMessage(alice, chat.id, `@${agent.username} tell a story`);
      const { mention } = (await agentSide.nextOfType('mention')) as unknown as { mention: Mention };
      agentSide.send({ type: 'agent_status', chat_id: chat.id, text: 'writing…' });
      expect(await aliceSide.nextOfType('agent_status')).toMatchObject({ chat_id: chat.id, text: 'writing…', agent: { id: agent.id, username: agent.username } });
      agentSide.send({ type: 'stream_start', chat_id: chat.id, stream_id: 'story-1', mention_id: mention.mention_id });
      expect(await aliceSide.nextOfType('stream_started')).toMatchObject({ stream_id: 'story-1', agent: { id: agent.id } });
      // The status line clears as the reply starts to show, and again when it is stored.
      expect(await aliceSide.nextOfType('agent_status')).toMatchObject({ chat_id: chat.id, text: '', agent: { id: agent.id } });
      agentSide.send({ type: 'stream_append', stream_id: 'story-1', text: 'Once upon ' });
      agentSide.send({ type: 'stream_append', stream_id: 'story-1', text: 'a time' });
      expect(await aliceSide.nextOfType('stream_delta')).toMatchObject({ offset: 0, text: 'Once upon ' });
      expect(await aliceSide.nextOfType('stream_delta')).toMatchObject({ offset: 10, text: 'a time' });
      // Bob joins mid-stream: the text so far.
      const bobSide = await person(bob);
      await bobSide.join(chat.id);
      expect(await bobSide.nextOfType('stream_snapshot')).toMatchObject({ stream_id: 'story-1', text: 'Once upon a time' });
      agentSide.send({ type: 'stream_append', stream_id: 'story-1', text: '…' });
      agentSide.send({ type: 'stream_end', stream_id: 'story-1' });
      for (const side of [aliceSide, bobSide]) {
        const final = await side.next((frame) => frame.type === 'new_message' && frame['stream_id'] === 'story-1');
        expect(final['message']).toMatchObject({ content: 'Once upon a time…', author_id: agent.id, is_agent: true });
        expect(await side.next((frame) => frame.type === 'agent_status' && frame['text'] === '')).toBeDefined();
      }
      expect(await testServer.probe.count('agent_streams')).toBe(0);
      agentSide.send({ type: 'stream_append', stream_id: 'story-1', text: 'late' });
      expect(await agentSide.nextOfType('error')).toMatchObject({ code: 'unknown_stream', ref: 'story-1' });
    });

    it('refuses a stream past 10,000 characters and one into a chat where the agent was not invoked', async () => {
      const { agent, api_key } = await createAgent(testServer.url, dev, { name: 'Long' });
      const { socket: agentSide } = await agentOnline(api_key);
      const { chat } = await aliceChat('Long replies');
      agentSide.send({ type: 'stream_start', chat_id: chat.id, stream_id: 'uninvited' });
      expect(await agentSide.nextOfType('error')).toMatchObject({ code: 'not_invoked', ref: 'uninvited' });
      await postMessage(alice, chat.id, `@${agent.username} go long`);
      await agentSide.nextOfType('mention');
      agentSide.send({ type: 'stream_start', chat_id: chat.id, stream_id: 'long' });
      agentSide.send({ type: 'stream_append', stream_id: 'long', text: 'x'.repeat(9_000) });
      agentSide.send({ type: 'stream_append', stream_id: 'long', text: 'y'.repeat(2_000) });
      expect(await agentSide.nextOfType('error')).toMatchObject({ code: 'invalid_message', ref: 'long' });
      // What was written before the refusal is kept; the end stores it and tells the (unjoined) agent.
      agentSide.send({ type: 'stream_end', stream_id: 'long' });
      const stored = await agentSide.next((frame) => frame.type === 'new_message' && frame['stream_id'] === 'long');
      expect((stored['message'] as { content: string }).content).toBe('x'.repeat(9_000));
    });

    it('runs a hosted agent in-process with the same contract: status, a streamed reply', async () => {
      const { chat, socket } = await aliceChat('Hosted');
      await postMessage(alice, chat.id, '@helper summarise');
      expect(await socket.nextOfType('agent_status')).toMatchObject({ text: 'thinking…', agent: { username: 'helper' } });
      const final = await socket.next((frame) => frame.type === 'new_message' && typeof frame['stream_id'] === 'string');
      expect(final['message']).toMatchObject({ content: 'hosted says: @helper summarise', author_username: 'helper', is_agent: true });
    });
  });

  it('closes a stream left without an append for 60 s with what it has, marked interrupted and cut off', async () => {
    let offsetMs = 0;
    const clocked = await startTestServer(variant, { now: () => new Date(Date.now() + offsetMs) });
    try {
      const owner = await registerUser(clocked);
      const chat = await createChat(owner, { name: 'Idle stream' });
      await allowDeveloperAgents(owner, chat.id);
      const created = await createAgent(clocked.url, owner, { name: 'Dozer' });
      const { socket: agentSide } = await agentSocket(clocked.url, created.api_key);
      track(agentSide);
      const ownerSide = track(await authenticatedSocket(clocked.url, owner.pb.authStore.token));
      await ownerSide.join(chat.id);
      await postMessage(owner, chat.id, `@${created.agent.username} start something`);
      await agentSide.nextOfType('mention');
      agentSide.send({ type: 'stream_start', chat_id: chat.id, stream_id: 'dozing' });
      agentSide.send({ type: 'stream_append', stream_id: 'dozing', text: 'half a thought' });
      await ownerSide.nextOfType('stream_delta');
      offsetMs = 61_000;
      // The sweep runs every 5 s on every instance; the first to claim the stream stores it.
      const final = await ownerSide.next((frame) => frame.type === 'new_message' && frame['stream_id'] === 'dozing', 8_000);
      expect(final['message']).toMatchObject({ content: `half a thought\n\n${interruptedReplyText(created.agent.username)}`, author_id: created.agent.id, cut_off: true });
      expect(await clocked.probe.count('agent_streams')).toBe(0);
    } finally {
      await clocked.close();
    }
  }, 20_000);
});

describe.each(variants)('agent creation limits ($name)', (variant) => {
  const hourMs = 60 * 60 * 1000;
  let clock = Date.UTC(2026, 0, 5, 10, 0, 0);
  let testServer: TestServer;

  beforeAll(async () => {
    // The defaults (25 per person, 10 an hour), on a clock the test moves.
    testServer = await startTestServer(variant, { agentsPerUser: undefined, agentsPerUserPerHour: undefined, now: () => new Date(clock) });
  });

  afterAll(async () => {
    await testServer?.close();
  });

  it('refuses the 11th agent of a person in an hour with a 429 and the 26th in all with a 400, creating nothing', async () => {
    const maker = await registerUser(testServer);
    const create = (name: string) => rawRequest(testServer.url, 'POST', '/api/agents', { token: maker.pb.authStore.token, body: { name } });
    const agentsOfMaker = async () => Number((await testServer.probe.rows('select count(*) as count from users where created_by = $1', [maker.record.id]))[0]?.['count']);
    const createMany = async (from: number, to: number) => {
      for (let index = from; index <= to; index += 1) expect((await create(`Helper ${index}`)).status, `Helper ${index}`).toBe(200);
    };
    await createMany(1, 10);
    const hourly = await create('Helper 11');
    expect(hourly.status).toBe(429);
    expect(hourly.body).toMatchObject({ message: 'You can create 10 agents an hour. Please try again later.' });
    expect(await agentsOfMaker()).toBe(10);

    clock += hourMs;
    await createMany(11, 20);
    clock += hourMs;
    await createMany(21, 25);
    const total = await create('Helper 26');
    expect(total.status).toBe(400);
    expect(total.body).toMatchObject({ message: 'You have 25 agents, the most one person can have. Delete one to create another.' });
    expect(await agentsOfMaker()).toBe(25);

    // Each person has their own allowance; deleting an agent makes room again.
    const other = await registerUser(testServer);
    expect((await rawRequest(testServer.url, 'POST', '/api/agents', { token: other.pb.authStore.token, body: { name: 'Other Helper' } })).status).toBe(200);
    const [first] = await testServer.probe.rows('select id from users where created_by = $1 order by created limit 1', [maker.record.id]);
    expect((await rawRequest(testServer.url, 'DELETE', `/api/agents/${String(first?.['id'])}`, { token: maker.pb.authStore.token })).status).toBe(204);
    expect((await create('Helper 27')).status).toBe(200);
  }, 60_000);

  it('never lets concurrent creations past either allowance', async () => {
    clock += 2 * hourMs;
    const maker = await registerUser(testServer);
    let made = 0;
    const race = async (count: number) => {
      const answers = await Promise.all(
        Array.from({ length: count }, () => {
          made += 1;
          return rawRequest(testServer.url, 'POST', '/api/agents', { token: maker.pb.authStore.token, body: { name: `Racer ${made}` } });
        }),
      );
      return answers.map((answer) => answer.status).sort();
    };
    const agentsOfMaker = async () => Number((await testServer.probe.rows('select count(*) as count from users where created_by = $1', [maker.record.id]))[0]?.['count']);
    expect(await race(30)).toEqual([...Array(10).fill(200), ...Array(20).fill(429)]);
    expect(await agentsOfMaker()).toBe(10);
    clock += hourMs;
    expect(await race(10)).toEqual(Array(10).fill(200));
    clock += hourMs;
    expect(await race(4)).toEqual(Array(4).fill(200));
    clock += hourMs;
    // 24 made: of 5 at once, within the hour's allowance, exactly one is the 25th.
    expect(await race(5)).toEqual([200, 400, 400, 400, 400]);
    expect(await agentsOfMaker()).toBe(25);
  }, 60_000);
});
