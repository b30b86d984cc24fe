/**
 * Fault matrix, row 1 (docs/OPERATIONS.md): an instance killed under load. Two instances on
 * PostgreSQL and Redis behind a round-robin proxy; 20 people send over WebSockets and HTTP with
 * client ids while one instance or the other is kill -9'd at a random moment, 20 times, and
 * started again each time. Every acknowledged send is stored exactly once and reaches every
 * participant, each of whom ends with seqs 1..N of each chat, in order, none twice.
 *
 * Runs with `pnpm test:faults` (it takes a few minutes).
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { Chatter, connectChatters, newChat, sequenceProblems, signUp } from '../support/chatters';
import { postgresUrl, databaseVariants } from '../support/databases';
import { dropSchema, sleep, startRoundRobinProxy, until, type Proxy } from '../support/faultInfra';
import { startInstance, type Instance } from '../support/instances';
import { redisAvailable, redisUrl } from '../support/redis';

const people = 20;
const chatCount = 4;
/** FAULT_KILLS=4 makes a quicker run while working on it. */
const kills = Number(process.env['FAULT_KILLS'] ?? 20);
const postgresReachable = (await databaseVariants()).some((variant) => variant.name === 'postgres');
const available = postgresReachable && (await redisAvailable());

describe.skipIf(!available)('an instance killed under load', () => {
  const schema = `test_kill_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const instances: Instance[] = [];
  const chatters: Chatter[] = [];
  let proxy: Proxy | undefined;

  afterAll(async () => {
    for (const chatter of chatters) chatter.close();
    await proxy?.close();
    await Promise.all(instances.map((instance) => instance.dispose()));
    await dropSchema(postgresUrl, schema);
  });

  it('stores every acknowledged send once and delivers it to everyone, in order', async () => {
    const environment = {
      DATABASE_URL: `${postgresUrl}?schema=${schema}`,
      REDIS_URL: redisUrl,
      CONFAB_SECRET: `fault-kill-${schema}-0123456789abcdef0123456789`,
      CONFAB_MESSAGES_PER_USER_PER_SECOND: '1000',
      CONFAB_WS_FRAMES_PER_SECOND: '1000',
    };
    // One after the other: the first migrates the schema.
    instances.push(await startInstance('a', environment));
    instances.push(await startInstance('b', environment));
    proxy = await startRoundRobinProxy(instances.map((instance) => instance.port));
    const url = proxy.url;

    const accounts: { token: string; userId: string }[] = [];
    for (let index = 0; index < people; index += 1) accounts.push(await signUp(url, `killed_${index}_${Math.random().toString(36).slice(2, 6)}`));
    // Person i is in chats i mod 4 and i+1 mod 4: ten people a chat, two chats a person.
    const members = (chat: number) => accounts.filter((_, index) => index % chatCount === chat || (index + 1) % chatCount === chat);
    const chatIds: string[] = [];
    for (let chat = 0; chat < chatCount; chat += 1) {
      const [owner, ...others] = members(chat);
      chatIds.push(await newChat(url, owner!.token, `Kill ${chat}`, others.map((other) => other.userId)));
    }
    chatters.push(...connectChatters(accounts, (index) => ({ name: `p${index}`, url: () => url, chats: [chatIds[index % chatCount]!, chatIds[(index + 1) % chatCount]!] })));
    expect(await until(() => chatters.every((chatter) => chatter.connected), 20_000)).toBe(true);

    // Half the people send over their socket, half over HTTP, each about once a second.
    let sending = true;
    const senders = chatters.map(async (chatter, index) => {
      const https: Promise<unknown>[] = [];
      for (let turn = 0; sending; turn += 1) {
        const chatId = chatter.chats[turn % 2]!;
        if (index % 2 === 0) chatter.sendOverSocket(chatId);
        else https.push(chatter.sendOverHttp(chatId));
        await sleep(800 + Math.random() * 400);
      }
      await Promise.all(https);
    });

    // FAULT_DEBUG=1 prints each kill, each restart's time and anyone falling behind.
    const startedAt = Date.now();
    const progress = (what: () => string) => {
      if (process.env['FAULT_DEBUG'] !== undefined) console.log(`${((Date.now() - startedAt) / 1000).toFixed(1)} s ${what()}`);
    };
    for (let kill = 0; kill < kills; kill += 1) {
      await sleep(300 + Math.random() * 1500);
      const victim = instances[kill % 2]!;
      await victim.kill();
      const restartAt = Date.now();
      await victim.start();
      progress(() => `kill ${kill + 1}: ${victim.name} back in ${Date.now() - restartAt} ms; ${chatters.filter((chatter) => chatter.unacknowledged().length > 3).map((chatter) => chatter.describe()).join('; ')}`);
    }
    const killingMs = Date.now() - startedAt;
    await sleep(1_000);
    sending = false;

    // Unanswered sends are retried until answered; then everyone catches up to each chat's end.
    const allAnswered = await until(() => chatters.every((chatter) => chatter.unacknowledged().length === 0), 60_000, 200);
    await Promise.all(senders);
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    let lastSeqs: Map<string, number>;
    let counts: Map<string, number>;
    try {
      await client.query(`set search_path to ${schema}`);
      const chats = await client.query<{ id: string; last_seq: string }>('select id, last_seq from chats where id = any($1)', [chatIds]);
      lastSeqs = new Map(chats.rows.map((row) => [row.id, Number(row.last_seq)]));
      const stored = await client.query<{ client_id: string; copies: string }>(
        "select client_id, count(*) as copies from messages where chat = any($1) and client_id like 'fault-%' group by client_id",
        [chatIds],
      );
      counts = new Map(stored.rows.map((row) => [row.client_id, Number(row.copies)]));
    } finally {
      await client.end();
    }
    progress(() => `all answered: ${allAnswered}`);
    const caughtUp = await until(
      () => chatters.every((chatter) => chatter.chats.every((chatId) => chatter.heldSeq(chatId) >= (lastSeqs.get(chatId) ?? 0))),
      30_000,
      200,
    );

    const sends = chatters.flatMap((chatter) => chatter.sends);
    const acknowledged = sends.filter((send) => send.ackedAt !== undefined);
    const lost = acknowledged.filter((send) => (counts.get(send.clientId) ?? 0) === 0);
    const duplicates = [...counts.values()].reduce((total, copies) => total + Math.max(0, copies - 1), 0);
    const stored = [...counts.values()].reduce((total, copies) => total + copies, 0);
    const deliveries = chatters.flatMap((chatter) => chatter.chats.map((chatId) => ({ who: chatter.name, chatId, ...sequenceProblems(chatter.received.get(chatId) ?? [], lastSeqs.get(chatId) ?? 0) })));
    const delivery = deliveries.reduce(
      (total, problems) => ({ missing: total.missing + problems.missing, duplicates: total.duplicates + problems.duplicates, outOfOrder: total.outOfOrder + problems.outOfOrder }),
      { missing: 0, duplicates: 0, outOfOrder: 0 },
    );
    const retried = sends.filter((send) => send.attempts > 1).length;
    const reconnects = chatters.reduce((total, chatter) => total + chatter.reconnects, 0);
    console.log(
      `instance kill: sends ${sends.length} (ws ${sends.filter((send) => send.via === 'ws').length}, http ${sends.filter((send) => send.via === 'http').length}), ` +
        `acknowledged ${acknowledged.length}, kills ${kills} in ${Math.round(killingMs / 1000)} s, stored ${stored}, lost ${lost.length}, duplicates ${duplicates}, ` +
        `retried ${retried}, reconnects ${reconnects}, delivery problems: missing ${delivery.missing}, duplicated ${delivery.duplicates}, out of order ${delivery.outOfOrder}`,
    );

    expect(allAnswered).toBe(true);
    expect(acknowledged.length).toBe(sends.length);
    expect(lost).toEqual([]);
    expect(duplicates).toBe(0);
    expect(stored).toBe(sends.length);
    expect([...lastSeqs.values()].reduce((total, seq) => total + seq, 0)).toBe(stored);
    expect(caughtUp).toBe(true);
    expect(deliveries.filter((problems) => problems.missing + problems.duplicates + problems.outOfOrder > 0)).toEqual([]);
    expect(reconnects).toBeGreaterThan(0);
  });
});
