import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfabClient } from '../client/ConfabClient';
import type { AgentRef, WireMessage } from '../protocol';
import { connectedClient, seedMessages } from '../testing/connectedClient';
import { startFakeGateway } from '../testing/fakeGateway';
import type { FakeGateway } from '../testing/fakeGateway';
import { startFakeServer } from '../testing/fakeServer';
import type { FakeServer } from '../testing/fakeServer';
import { settle, waitUntil } from '../testing/waitUntil';
import { applyStreamDelta } from './AgentActivity';

const alice = 'alice0000000001';
const deep: AgentRef = { id: 'agentdeep000001', username: 'deep', name: 'Deep Research' };
let server: FakeServer;
let gateway: FakeGateway;
let client: ConfabClient;

beforeEach(async () => {
  server = await startFakeServer();
  gateway = await startFakeGateway();
  server.addChat({ id: 'chat1', name: 'Team', participants: [alice, 'bob000000000001'] });
  server.addChat({ id: 'chat2', name: 'Other', participants: [alice] });
  seedMessages(server, gateway, 'chat1', 2);
  client = await connectedClient(server, gateway);
  await client.messages.open('chat1');
  await waitUntil(() => gateway.received.some((frame) => frame.type === 'join_chat'), 'the join');
});

afterEach(async () => {
  client.logout();
  await gateway.close();
  await server.close();
});

const state = () => client.store.getState();
const placeholder = () => state().messages.find((message) => message.status === 'streaming');

function finalMessage(seq: number, content: string): WireMessage {
  return {
    message_id: `final${seq}`,
    chat_id: 'chat1',
    author_id: deep.id,
    author_name: deep.name,
    author_username: deep.username,
    content,
    created_at: '2026-01-01 00:01:00.000Z',
    message_type: 'regular',
    seq,
    is_agent: true,
  };
}

const started = (streamId = 's1', chatId = 'chat1') =>
  gateway.push({ type: 'stream_started', chat_id: chatId, stream_id: streamId, agent: deep, started_at: '2026-01-01 00:00:30.000Z' });
const delta = (offset: number, text: string, streamId = 's1') => gateway.push({ type: 'stream_delta', chat_id: 'chat1', stream_id: streamId, offset, text });

describe('streamed replies', () => {
  it('grow in place and are replaced by the final new_message with the same stream_id', async () => {
    started();
    await waitUntil(() => placeholder() !== undefined, 'the placeholder');
    expect(placeholder()).toMatchObject({
      message_id: 'stream:s1',
      seq: null,
      status: 'streaming',
      is_agent: true,
      author_id: deep.id,
      author_name: 'Deep Research',
      author_username: 'deep',
      content: '',
      stream_id: 's1',
    });
    delta(0, 'Hello');
    delta(5, ', wor');
    delta(5, ', wor'); // a repeat changes nothing
    delta(10, 'ld');
    await waitUntil(() => placeholder()?.content === 'Hello, world', 'the reply to grow');
    // A person's message meanwhile goes before the growing reply, which gets its seq only at the end.
    gateway.append('chat1', 'meanwhile');
    await waitUntil(() => state().messages.length === 4, 'the live message');
    expect(state().messages.map((message) => message.seq)).toEqual([1, 2, 3, null]);

    gateway.push({ type: 'new_message', message: finalMessage(4, 'Hello, world!'), stream_id: 's1' });
    await waitUntil(() => placeholder() === undefined, 'the final message');
    expect(state().messages.map((message) => message.seq)).toEqual([1, 2, 3, 4]);
    expect(state().messages.at(-1)).toMatchObject({ content: 'Hello, world!', status: 'sent', stream_id: 's1', is_agent: true });
  });

  it('catch up from a snapshot when joining mid-stream, and a gap waits for the final text', async () => {
    gateway.push({ type: 'stream_snapshot', chat_id: 'chat1', stream_id: 's2', agent: deep, started_at: '2026-01-01 00:00:30.000Z', text: 'So far' });
    await waitUntil(() => placeholder()?.content === 'So far', 'the snapshot');
    delta(20, 'lost', 's2');
    delta(6, ' so good', 's2');
    await waitUntil(() => placeholder()?.content === 'So far so good', 'the next delta');
    delta(100, 'after a gap', 's2');
    await settle();
    expect(placeholder()?.content).toBe('So far so good');
  });

  it('vanish when aborted, and ignore other chats', async () => {
    started('s3', 'chat2');
    started('s4');
    await waitUntil(() => placeholder() !== undefined, 'the placeholder');
    expect(state().messages.filter((message) => message.status === 'streaming')).toHaveLength(1);
    gateway.push({ type: 'stream_aborted', chat_id: 'chat1', stream_id: 's4' });
    await waitUntil(() => placeholder() === undefined, 'the abort');
  });

  it('that ended while disconnected are dropped after the rejoin unless a snapshot keeps them', async () => {
    started('gone');
    started('growing');
    await waitUntil(() => state().messages.filter((message) => message.status === 'streaming').length === 2, 'two placeholders');
    gateway.dropAll();
    await waitUntil(() => state().connectionState !== 'connected', 'the drop');
    // The reconnect's join is answered by the fake with `joined`; the snapshot of the still-growing
    // reply is pushed as soon as the client is back.
    await waitUntil(() => state().connectionState === 'connected', 'the reconnect', 5000);
    gateway.push({ type: 'stream_snapshot', chat_id: 'chat1', stream_id: 'growing', agent: deep, started_at: '2026-01-01 00:00:30.000Z', text: 'still here' });
    await waitUntil(() => state().messages.every((message) => message.stream_id !== 'gone'), 'the ended stream to go');
    await waitUntil(() => placeholder()?.content === 'still here', 'the snapshot');
  });
});

describe('status lines and notices', () => {
  it("show an agent's status until its reply ends, and '' clears it", async () => {
    gateway.push({ type: 'agent_status', chat_id: 'chat1', agent: deep, text: 'is searching…' });
    await waitUntil(() => state().agentStatuses.length === 1, 'the status');
    expect(state().agentStatuses).toEqual([{ chat_id: 'chat1', agent: deep, text: 'is searching…' }]);
    gateway.push({ type: 'agent_status', chat_id: 'chat1', agent: deep, text: 'is reading 3 pages…' });
    await waitUntil(() => state().agentStatuses[0]?.text === 'is reading 3 pages…', 'the new status');
    gateway.push({ type: 'new_message', message: finalMessage(3, 'Done.') });
    await waitUntil(() => state().agentStatuses.length === 0, 'the reply to clear it');
    gateway.push({ type: 'agent_status', chat_id: 'chat1', agent: deep, text: 'is thinking…' });
    await waitUntil(() => state().agentStatuses.length === 1, 'another status');
    gateway.push({ type: 'agent_status', chat_id: 'chat1', agent: deep, text: '' });
    await waitUntil(() => state().agentStatuses.length === 0, 'the empty status to clear it');
  });

  it('keep notices about the open chat once each, and forget them when another chat opens', async () => {
    const notice = {
      type: 'agent_notice',
      chat_id: 'chat1',
      message_id: 'm1',
      agent_username: 'echo',
      reason: 'offline',
      text: '@echo is offline. Your message will be delivered if it reconnects within 10 minutes.',
    } as const;
    gateway.push(notice);
    gateway.push(notice);
    gateway.push({ ...notice, chat_id: 'chat2' });
    await waitUntil(() => state().agentNotices.length === 1, 'the notice');
    await settle();
    expect(state().agentNotices).toEqual([
      { id: 'm1:echo:offline', chat_id: 'chat1', message_id: 'm1', agent_username: 'echo', reason: 'offline', text: notice.text, received_at: expect.any(String) },
    ]);
    gateway.push({ type: 'agent_status', chat_id: 'chat1', agent: deep, text: 'is searching…' });
    await waitUntil(() => state().agentStatuses.length === 1, 'the status');
    await client.messages.open('chat2');
    expect(state()).toMatchObject({ agentNotices: [], agentStatuses: [] });
  });
});

describe('applyStreamDelta', () => {
  it('appends, ignores repeats, overwrites overlaps and refuses gaps', () => {
    expect(applyStreamDelta('abc', 3, 'de')).toBe('abcde');
    expect(applyStreamDelta('abc', 1, 'b')).toBe('abc');
    expect(applyStreamDelta('abc', 2, 'CD')).toBe('abCD');
    expect(applyStreamDelta('abc', 4, 'e')).toBeNull();
    expect(applyStreamDelta('abc', -1, 'e')).toBeNull();
  });
});
