/**
 * Fault matrix, row 3 (docs/OPERATIONS.md): PostgreSQL restarted mid-traffic. A cluster of this
 * test's own (initdb, pg_ctl) is stopped for a few seconds under sends and started again. Requests
 * during the outage are answered fast with 503 and a clear message, never left hanging; the pool
 * reconnects by itself; sends retried with the same client id are stored once; the sockets end with
 * every seq once, in order; the process stays up.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseUnavailableText } from '../../src/http/errorHandler';
import { Chatter, connectChatters, newChat, sequenceProblems, signUp } from '../support/chatters';
import { binariesAvailable, sleep, startPrivatePostgres, until, type PrivatePostgres } from '../support/faultInfra';
import { startInstance, type Instance } from '../support/instances';

const available = binariesAvailable('initdb', 'pg_ctl') && (process.getuid?.() !== 0 || binariesAvailable('runuser'));
const outageMs = 4_000;

interface Probe {
  status: number;
  message: string;
  ms: number;
}

/** One send over HTTP, timed; status 0 when no answer came within 15 s. */
async function probe(url: string, token: string, chatId: string): Promise<Probe> {
  const startedAt = Date.now();
  try {
    const response = await fetch(`${url}/api/collections/messages/records`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: token },
      body: JSON.stringify({ chat: chatId, content: 'probe during the outage' }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await response.json()) as { message?: unknown };
    return { status: response.status, message: String(body.message), ms: Date.now() - startedAt };
  } catch {
    return { status: 0, message: 'no answer', ms: Date.now() - startedAt };
  }
}

describe.skipIf(!available)('PostgreSQL restarted mid-traffic', () => {
  let postgres: PrivatePostgres | undefined;
  let instance: Instance | undefined;
  const chatters: Chatter[] = [];

  afterAll(async () => {
    for (const chatter of chatters) chatter.close();
    await instance?.dispose();
    await postgres?.dispose();
  }, 60_000);

  it('answers 503 fast while it is down, reconnects by itself and stores each retried send once', async () => {
    postgres = await startPrivatePostgres();
    instance = await startInstance('pg', { DATABASE_URL: `${postgres.url}?schema=confab`, REDIS_URL: '', CONFAB_SECRET: 'fault-postgres-0123456789abcdef0123456789abcdef' });
    const url = instance.url;
    const accounts: { token: string; userId: string }[] = [];
    for (let index = 0; index < 3; index += 1) accounts.push(await signUp(url, `pg_restart_${index}_${Math.random().toString(36).slice(2, 6)}`));
    const chatId = await newChat(url, accounts[0]!.token, 'PostgreSQL restart', accounts.slice(1).map((account) => account.userId));
    chatters.push(...connectChatters(accounts, (index) => ({ name: `p${index}`, url: () => url, chats: [chatId] })));
    expect(await until(() => chatters.every((chatter) => chatter.connected), 20_000)).toBe(true);

    let sending = true;
    const senders = chatters.map(async (chatter, index) => {
      const https: Promise<unknown>[] = [];
      for (let turn = index; sending; turn += 1) {
        if (turn % 2 === 0) chatter.sendOverSocket(chatId);
        else https.push(chatter.sendOverHttp(chatId));
        await sleep(150 + Math.random() * 100);
      }
      await Promise.all(https);
    });
    await sleep(1_500);

    await postgres.stop('fast');
    const stoppedAt = Date.now();
    const probes: Probe[] = [];
    while (Date.now() - stoppedAt < outageMs) probes.push(await probe(url, accounts[0]!.token, chatId));
    await postgres.start();
    const startedAgainAt = Date.now();
    // The same pool, no restart of the server: the first send that gets through.
    const reconnected = await until(async () => (await probe(url, accounts[1]!.token, chatId)).status === 200, 20_000, 200);
    const reconnectMs = Date.now() - startedAgainAt;
    await sleep(1_500);
    sending = false;
    await Promise.all(senders);
    const answered = await until(() => chatters.every((chatter) => chatter.unacknowledged().length === 0), 30_000, 200);

    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    const copies = new Map<string, number>();
    let lastSeq = 0;
    try {
      const stored = await client.query<{ client_id: string; copies: string }>(
        "select client_id, count(*) as copies from confab.messages where chat = $1 and client_id like 'fault-%' group by client_id",
        [chatId],
      );
      for (const row of stored.rows) copies.set(row.client_id, Number(row.copies));
      lastSeq = Number((await client.query<{ last_seq: string }>('select last_seq from confab.chats where id = $1', [chatId])).rows[0]?.last_seq);
    } finally {
      await client.end();
    }
    const delivered = await until(() => chatters.every((chatter) => chatter.heldSeq(chatId) === lastSeq), 15_000);

    const sends = chatters.flatMap((chatter) => chatter.sends);
    const acknowledged = sends.filter((send) => send.ackedAt !== undefined);
    const lost = acknowledged.filter((send) => (copies.get(send.clientId) ?? 0) === 0);
    const duplicates = [...copies.values()].reduce((total, count) => total + Math.max(0, count - 1), 0);
    const stored = [...copies.values()].reduce((total, count) => total + count, 0);
    const httpFailures = sends.filter((send) => send.via === 'http').flatMap((send) => send.failures);
    const refused = probes.filter((answer) => answer.status !== 200);
    const deliveries = chatters.map((chatter) => ({ who: chatter.name, ...sequenceProblems(chatter.received.get(chatId) ?? [], lastSeq) }));
    console.log(
      `PostgreSQL restart: sends ${sends.length}, acknowledged ${acknowledged.length}, stored ${stored}, lost ${lost.length}, duplicates ${duplicates}, ` +
        `retried ${sends.filter((send) => send.attempts > 1).length}; during the ${outageMs / 1000} s outage ${probes.length} probes, statuses ${[...new Set(probes.map((answer) => answer.status))].join('/')}, ` +
        `slowest ${Math.max(...probes.map((answer) => answer.ms))} ms; HTTP send failures by status ${JSON.stringify(countBy(httpFailures))}; sends again ${reconnectMs} ms after the restart`,
    );

    expect(refused.length).toBeGreaterThan(0);
    expect(refused.filter((answer) => answer.status !== 503 || answer.message !== databaseUnavailableText)).toEqual([]);
    expect(Math.max(...probes.map((answer) => answer.ms))).toBeLessThan(7_000);
    expect(httpFailures.filter((status) => status !== 503)).toEqual([]);
    expect(reconnected).toBe(true);
    expect(answered).toBe(true);
    expect(lost).toEqual([]);
    expect(duplicates).toBe(0);
    expect(stored).toBe(sends.length);
    expect(delivered).toBe(true);
    expect(deliveries.filter((problems) => problems.missing + problems.duplicates + problems.outOfOrder > 0)).toEqual([]);
    expect(instance.alive()).toBe(true);
  }, 180_000);
});

function countBy(values: readonly number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
  return counts;
}
