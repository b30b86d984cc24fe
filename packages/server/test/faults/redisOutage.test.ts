/**
 * Fault matrix, row 2 (docs/OPERATIONS.md): Redis down for 10 s and back. Two instances on
 * PostgreSQL share a Redis of this test's own, which is kill -9'd mid-traffic and started again on
 * the same port. Meanwhile sends on instance A are stored and reach A's sockets at once; B's
 * sockets, cut off from A's publishes, catch up as soon as Redis is back with no new message to
 * show them the gap; the limits that fail closed answer 503 and those that fail open keep counting
 * on each instance; nothing acknowledged is lost, nothing is delivered twice, neither process dies,
 * and no send waits on Redis (nothing queues for it).
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { limitsUnreachableText } from '../../src/services/limits/rateLimits';
import { Chatter, connectChatters, newChat, sequenceProblems, signUp, type Send } from '../support/chatters';
import { databaseVariants, postgresUrl } from '../support/databases';
import { binariesAvailable, dropSchema, sleep, startPrivateRedis, until, type PrivateRedis } from '../support/faultInfra';
import { startInstance, type Instance } from '../support/instances';

const postgresReachable = (await databaseVariants()).some((variant) => variant.name === 'postgres');
const available = postgresReachable && binariesAvailable('redis-server', 'redis-cli');
const outageMs = 10_000;

async function lastSeqOf(schema: string, chatId: string): Promise<number> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ last_seq: string }>(`select last_seq from ${schema}.chats where id = $1`, [chatId]);
    return Number(rows[0]?.last_seq ?? 0);
  } finally {
    await client.end();
  }
}

async function storedCopies(schema: string, chatId: string): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ client_id: string; copies: string }>(
      `select client_id, count(*) as copies from ${schema}.messages where chat = $1 and client_id is not null group by client_id`,
      [chatId],
    );
    return new Map(rows.map((row) => [row.client_id, Number(row.copies)]));
  } finally {
    await client.end();
  }
}

/** Everyone in `chatters` sends once every ~400 ms (alternately over the socket and HTTP) until `stop` says so. */
function traffic(chatters: readonly Chatter[], chatId: string): { stop(): Promise<void> } {
  let running = true;
  const loops = chatters.map(async (chatter, index) => {
    const https: Promise<Send>[] = [];
    for (let turn = index; running; turn += 1) {
      if (turn % 2 === 0) chatter.sendOverSocket(chatId);
      else https.push(chatter.sendOverHttp(chatId));
      await sleep(300 + Math.random() * 200);
    }
    await Promise.all(https);
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function signInStatus(url: string, username: string): Promise<{ status: number; message: string }> {
  const response = await fetch(`${url}/api/collections/users/auth-with-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identity: username, password: `${username} password 1` }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, message: String(((await response.json()) as { message?: unknown }).message) };
}

describe.skipIf(!available)('Redis down for 10 s and back', () => {
  const schema = `test_redis_out_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let redis: PrivateRedis | undefined;
  const instances: Instance[] = [];
  const chatters: Chatter[] = [];

  afterAll(async () => {
    for (const chatter of chatters) chatter.close();
    await Promise.all(instances.map((instance) => instance.dispose()));
    await redis?.dispose();
    await dropSchema(postgresUrl, schema);
  }, 60_000);

  it('keeps storing and serving each instance, catches the other up when Redis returns, limits fail safe', async () => {
    redis = await startPrivateRedis();
    const environment = { DATABASE_URL: `${postgresUrl}?schema=${schema}`, REDIS_URL: redis.url, CONFAB_SECRET: `fault-redis-${schema}-0123456789abcdef0123456789` };
    const a = await startInstance('a', environment);
    instances.push(a);
    const b = await startInstance('b', environment);
    instances.push(b);

    const accounts: { token: string; userId: string; username: string }[] = [];
    for (let index = 0; index < 6; index += 1) {
      const username = `redis_out_${index}_${Math.random().toString(36).slice(2, 6)}`;
      accounts.push({ ...(await signUp(a.url, username)), username });
    }
    const chatId = await newChat(a.url, accounts[0]!.token, 'Redis outage', accounts.slice(1).map((account) => account.userId));
    // The first three talk to A, the others to B, each over its own socket.
    chatters.push(
      ...connectChatters(accounts, (index) => {
        const instance = index < 3 ? a : b;
        return { name: `${instance.name}${index}`, url: () => instance.url, chats: [chatId] };
      }),
    );
    const onA = chatters.slice(0, 3);
    const onB = chatters.slice(3);
    expect(await until(() => chatters.every((chatter) => chatter.connected), 20_000)).toBe(true);

    // Redis up: everyone talks, and everyone hears everyone.
    let load = traffic(chatters, chatId);
    await sleep(2_000);
    await load.stop();
    expect(await until(async () => chatters.every((chatter) => chatter.unacknowledged().length === 0), 10_000)).toBe(true);
    const beforeOutage = await lastSeqOf(schema, chatId);
    expect(await until(() => chatters.every((chatter) => chatter.heldSeq(chatId) === beforeOutage), 10_000)).toBe(true);

    // Redis gone: only A's people talk.
    await redis.kill();
    const outageStartedAt = Date.now();
    const sendsBefore = new Set(chatters.flatMap((chatter) => chatter.sends));
    load = traffic(onA, chatId);
    await sleep(2_000);
    // Limits that fail closed answer 503 with a clear message; messages (failing open) went through above.
    const signIn = await signInStatus(b.url, accounts[4]!.username);
    const signUpAttempt = await fetch(`${a.url}/api/collections/users/records`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'during_outage', email: 'during_outage@example.test', password: 'a long enough password', passwordConfirm: 'a long enough password' }),
      signal: AbortSignal.timeout(10_000),
    });
    await sleep(outageMs - 3_000 - (Date.now() - outageStartedAt));
    await load.stop();
    const duringOutage = chatters.flatMap((chatter) => chatter.sends).filter((send) => !sendsBefore.has(send));
    const outageSeq = await lastSeqOf(schema, chatId);
    // A's sockets have it all, with Redis still down; B's heard none of it.
    const aServed = await until(() => onA.every((chatter) => chatter.heldSeq(chatId) === outageSeq), 5_000);
    const bBehind = onB.every((chatter) => chatter.heldSeq(chatId) === beforeOutage);

    await sleep(outageMs - (Date.now() - outageStartedAt));
    await redis.start();
    const backAt = Date.now();
    // Nothing new is sent: B's rooms catch up by themselves once their subscriptions are back.
    const bCaughtUp = await until(() => onB.every((chatter) => chatter.heldSeq(chatId) === outageSeq), 15_000);
    const catchUpMs = Date.now() - backAt;
    const signInAfter = await until(async () => (await signInStatus(b.url, accounts[4]!.username)).status === 200, 10_000, 250);

    // Redis back: everyone talks again, and hears everyone.
    load = traffic(chatters, chatId);
    await sleep(2_000);
    await load.stop();
    const answered = await until(() => chatters.every((chatter) => chatter.unacknowledged().length === 0), 15_000);
    const lastSeq = await lastSeqOf(schema, chatId);
    const delivered = await until(() => chatters.every((chatter) => chatter.heldSeq(chatId) === lastSeq), 15_000);

    const sends = chatters.flatMap((chatter) => chatter.sends);
    const acknowledged = sends.filter((send) => send.ackedAt !== undefined);
    const copies = await storedCopies(schema, chatId);
    const lost = acknowledged.filter((send) => (copies.get(send.clientId) ?? 0) === 0);
    const duplicates = [...copies.values()].reduce((total, count) => total + Math.max(0, count - 1), 0);
    const stored = [...copies.values()].reduce((total, count) => total + count, 0);
    const outageLatencies = duringOutage.map((send) => (send.ackedAt ?? Infinity) - send.startedAt);
    const slowest = Math.max(...outageLatencies);
    const deliveries = chatters.map((chatter) => ({ who: chatter.name, ...sequenceProblems(chatter.received.get(chatId) ?? [], lastSeq) }));
    console.log(
      `Redis outage: sends ${sends.length}, acknowledged ${acknowledged.length}, stored ${stored}, lost ${lost.length}, duplicates ${duplicates}; ` +
        `during the ${outageMs / 1000} s outage ${duringOutage.length} sends on A, slowest acknowledged in ${slowest} ms, retried ${duringOutage.filter((send) => send.attempts > 1).length}; ` +
        `B caught up ${catchUpMs} ms after Redis returned; sign-in during the outage ${signIn.status}, sign-up ${signUpAttempt.status}`,
    );

    expect(duringOutage.length).toBeGreaterThan(10);
    expect(duringOutage.every((send) => send.ackedAt !== undefined && send.attempts === 1)).toBe(true);
    // No send waited on Redis: answered as fast as with it (the bound is for a loaded machine).
    expect(slowest).toBeLessThan(2_000);
    expect(aServed).toBe(true);
    expect(bBehind).toBe(true);
    expect(bCaughtUp).toBe(true);
    expect(signIn).toEqual({ status: 503, message: limitsUnreachableText });
    expect(signUpAttempt.status).toBe(503);
    expect(signInAfter).toBe(true);
    expect(answered).toBe(true);
    expect(delivered).toBe(true);
    expect(lost).toEqual([]);
    expect(duplicates).toBe(0);
    expect(stored).toBe(sends.length);
    expect(deliveries.filter((problems) => problems.missing + problems.duplicates + problems.outOfOrder > 0)).toEqual([]);
    expect(a.alive() && b.alive()).toBe(true);
  }, 180_000);
});
