/**
 * An instance killed with people connected to it (docs/CONTRACTS.md, Typing and presence): it
 * closes nothing, so it tells nobody they went offline. The presence store finds their entries
 * expired (a short CONFAB_PRESENCE_TTL_SECONDS here; 45 s by default) and one of the surviving
 * instances announces them offline to the people who share a chat with them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { newChat, signUp } from '../support/chatters';
import { databaseVariants, postgresUrl } from '../support/databases';
import { dropSchema } from '../support/faultInfra';
import { startInstance, type Instance } from '../support/instances';
import { redisAvailable } from '../support/redis';
import { authenticatedSocket, type TestSocket } from '../support/wsClient';

const postgresReachable = (await databaseVariants()).some((variant) => variant.name === 'postgres');
const available = postgresReachable && (await redisAvailable());

describe.skipIf(!available)('people on an instance that dies', () => {
  const schema = `test_presence_death_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const instances: Instance[] = [];
  const sockets: TestSocket[] = [];

  afterAll(async () => {
    for (const socket of sockets) await socket.close();
    await Promise.all(instances.map((instance) => instance.dispose()));
    await dropSchema(postgresUrl, schema);
  }, 60_000);

  it('are announced offline by another instance once their presence expires', async () => {
    const environment = {
      DATABASE_URL: `${postgresUrl}?schema=${schema}`,
      REDIS_URL: 'redis://127.0.0.1:6379',
      CONFAB_SECRET: `presence-death-${schema}-0123456789abcdef0123`,
      CONFAB_PRESENCE_TTL_SECONDS: '2',
    };
    const a = await startInstance('a', environment);
    instances.push(a);
    const b = await startInstance('b', environment);
    instances.push(b);
    const suffix = Math.random().toString(36).slice(2, 6);
    const ann = await signUp(b.url, `death_ann_${suffix}`);
    const bob = await signUp(a.url, `death_bob_${suffix}`);
    const chatId = await newChat(b.url, ann.token, 'Who is here', [bob.userId]);

    const annSocket = await authenticatedSocket(b.url, ann.token);
    sockets.push(annSocket);
    const bobSocket = await authenticatedSocket(a.url, bob.token);
    sockets.push(bobSocket);
    await annSocket.next((frame) => frame.type === 'presence' && frame['user_id'] === bob.userId && frame['online'] === true, 10_000);

    // Ann's instance still answers for Bob while his instance lives, well past the ttl (refreshed).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const presence = async () => (await (await fetch(`${b.url}/api/chats/${chatId}/presence`, { headers: { authorization: ann.token } })).json()) as { online: string[] };
    expect((await presence()).online).toContain(bob.userId);

    const killedAt = Date.now();
    await a.kill();
    const offline = await annSocket.next((frame) => frame.type === 'presence' && frame['user_id'] === bob.userId, 15_000);
    expect(offline['online']).toBe(false);
    const tookMs = Date.now() - killedAt;
    console.log(`instance death: Bob announced offline ${tookMs} ms after his instance was killed (ttl 2 s)`);
    expect(tookMs).toBeLessThan(10_000);
    expect((await presence()).online).not.toContain(bob.userId);
  });
});
