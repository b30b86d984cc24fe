import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSocket, createAgent } from './support/agents';
import { databaseVariants } from './support/databases';
import { registerUser } from './support/fixtures';
import { startTestServer, type TestServer } from './support/testServer';

/**
 * The agent socket as a way in from outside: forged and malformed agent frames (any type, any
 * field values, any JSON) never crash the server, never close the socket, and every refusal is an
 * error frame; afterwards the socket and the server still answer.
 */
const variants = await databaseVariants();

const agentFrameTypes = ['authenticate_with_api_key', 'mention_ack', 'stream_start', 'stream_append', 'stream_end', 'agent_status', 'send_message', 'join_chat', 'add_reaction', 'remove_reaction', 'edit_message', 'delete_message', 'typing', 'mark_read'];
const anyValue = fc.oneof(fc.string({ maxLength: 200 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }));
const frameArbitrary = fc.record(
  {
    type: fc.oneof(fc.constantFrom(...agentFrameTypes), fc.string({ maxLength: 20 })),
    chat_id: anyValue,
    stream_id: anyValue,
    mention_id: anyValue,
    text: anyValue,
    content: anyValue,
    client_id: anyValue,
    api_key: anyValue,
    message_id: anyValue,
    emoji: fc.oneof(anyValue, fc.constantFrom('👍', '👍🏽', '🇫🇷', '👨‍👩‍👧', '\u200d', '👍👍', '\ud83d')),
    reply_to: anyValue,
    seq: anyValue,
  },
  { requiredKeys: ['type'] },
);

describe.each(variants)('agent frames fuzz ($name)', (variant) => {
  let testServer: TestServer;
  let apiKey: string;

  beforeAll(async () => {
    testServer = await startTestServer(variant, { wsFramesPerSecond: 10_000 });
    const dev = await registerUser(testServer);
    apiKey = (await createAgent(testServer.url, dev, { name: 'Fuzzed' })).api_key;
  });

  afterAll(async () => {
    await testServer?.close();
  });

  it('answers hostile agent frames with error frames and keeps the socket and the server up', async () => {
    const { socket } = await agentSocket(testServer.url, apiKey);
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(frameArbitrary, async (frame) => {
        // A second authenticate with another key would rightly close the socket: keep the real one.
        const payload = frame.type === 'authenticate_with_api_key' ? { ...frame, api_key: apiKey } : frame;
        socket.send(payload);
        sent += 1;
      }),
      { numRuns: 150 },
    );
    // Garbage that is not an object at all.
    for (const raw of ['', '[]', '"x"', '{"type":', 'null', '{"type":"stream_append","stream_id":"a","text":"' + 'x'.repeat(20_000) + '"}']) socket.send(raw);
    socket.send({ type: 'ping', timestamp: 42 });
    const pong = await socket.next((frame) => frame.type === 'pong' && frame['timestamp'] === 42, 15_000);
    expect(pong).toBeDefined();
    const everything = await socket.collect(() => true, 300);
    for (const frame of everything) expect(['error', 'pong', 'authSuccess', 'left', 'new_message', 'joined']).toContain(frame.type);
    expect(sent).toBe(150);
    // The server still serves people.
    const health = await fetch(`${testServer.url}/api/health`);
    expect(health.status).toBe(200);
    await socket.close();
  }, 60_000);
});
