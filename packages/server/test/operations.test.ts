/**
 * What an operator watches (docs/OPERATIONS.md) on real servers: /api/ready (and
 * /api/health?ready=1) on SQLite, on PostgreSQL with Redis, 503 when a private Redis is killed and
 * 200 again when it is back, 503 while draining, the bucket (s3rver) and the mail relay reported
 * without making it 503, every check bounded in time, no connection string in the answer;
 * /metrics off by default, refused without the token, 401 for a wrong one, served with it or to an
 * allow-listed peer (never by X-Forwarded-For), as parsable Prometheus text whose counters move
 * with requests, sends, sockets, fan-outs, refusals, mentions, agent replies and AI tokens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/config';
import { startServer, type ConfabServer, type ServerOptions } from '../src/index';
import { Readiness } from '../src/operations/readiness';
import { DiskFileStore } from '../src/services/files/diskFileStore';
import { openDatabase } from '../src/store/database';
import { startTestBucket, type TestBucket } from './support/bucket';
import { databaseVariants } from './support/databases';
import { freePort } from './support/faultInfra';
import { startFakeOpenAI, type FakeOpenAI } from './support/fakeOpenAI';
import { createChat, postMessage, registerUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { redisAvailable, redisUrl } from './support/redis';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, type TestSocket } from './support/wsClient';

const variants = await databaseVariants();
const postgres = variants.find((variant) => variant.name === 'postgres');
const sqlite = variants.find((variant) => variant.name === 'sqlite')!;
const withRedis = await redisAvailable();
const metricsToken = 'metrics-token-0123456789abcdef';

interface ReadyBody {
  message: string;
  code: number;
  data: { ready: boolean; draining: boolean; checks: Record<string, { status: string; required: boolean; error?: string; latency_ms?: number; pools?: unknown }> };
}

async function ready(url: string, path = '/api/ready'): Promise<{ status: number; body: ReadyBody; text: string; ms: number }> {
  const started = Date.now();
  const response = await rawRequest(url, 'GET', path);
  return { status: response.status, body: response.body as ReadyBody, text: response.text, ms: Date.now() - started };
}

/** Polls until `check` holds (a dependency coming back reconnects on its own schedule). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A server of this file's own, for cases that close it themselves. */
async function startOwnServer(options: ServerOptions): Promise<{ server: ConfabServer; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'confab-ops-'));
  const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, smtpUrl: '', inboundSmtp: 'off', ...options });
  let closed = false;
  return {
    server,
    async close() {
      if (!closed) await server.close();
      closed = true;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A redis-server of this test's own on a free port, to kill and start again. */
async function startPrivateRedis(port: number): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not start within 10 s')), 10_000);
    child.stdout?.on('data', (data: Buffer) => {
      if (data.toString().includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

describe('readiness', () => {
  it('answers 200 on SQLite with the database up; /api/health?ready=1 is the same; /api/health stays the liveness answer', async () => {
    const testServer = await startTestServer(sqlite);
    try {
      const answer = await ready(testServer.url);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ message: 'Ready.', code: 200, data: { ready: true, draining: false } });
      expect(answer.body.data.checks['database']).toMatchObject({ status: 'up', required: true });
      // Nothing configured is not checked: no Redis, no bucket, no relay.
      expect(Object.keys(answer.body.data.checks)).toEqual(['database', 'agents']);
      expect(answer.body.data.checks['agents']).toMatchObject({ status: 'up', required: false, pools: { data: { saturated: false } } });
      const same = await ready(testServer.url, '/api/health?ready=1');
      expect(same.status).toBe(200);
      expect(same.body.data).toMatchObject({ ready: true, checks: { database: { status: 'up' } } });
      const health = await rawRequest(testServer.url, 'GET', '/api/health');
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ message: 'API is healthy.', code: 200, data: { agents: { data: { running: 0, queued: 0, saturated: false } } } });
    } finally {
      await testServer.close();
    }
  });

  it.runIf(postgres !== undefined && withRedis)('answers 200 on PostgreSQL with Redis, both required and up, and names no connection string', async () => {
    const testServer = await startTestServer(postgres!, { redisUrl });
    try {
      const answer = await eventually(() => ready(testServer.url), (value) => value.status === 200);
      expect(answer.status).toBe(200);
      expect(answer.body.data.checks['database']).toMatchObject({ status: 'up', required: true });
      expect(answer.body.data.checks['redis']).toMatchObject({ status: 'up', required: true });
      expect(answer.text).not.toMatch(/postgres:|redis:|127\.0\.0\.1|6379|5432/);
    } finally {
      await testServer.close();
    }
  });

  it('answers 503 within the bound when its Redis is killed, and 200 again once Redis is back', async () => {
    const port = await freePort();
    let redis = await startPrivateRedis(port);
    const own = await startOwnServer({ redisUrl: redis.url });
    try {
      expect((await eventually(() => ready(own.server.url), (value) => value.status === 200)).status).toBe(200);
      await redis.stop();
      const down = await eventually(() => ready(own.server.url), (value) => value.status === 503);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ code: 503, message: 'Not ready: Redis is down.', data: { ready: false, draining: false } });
      expect(down.body.data.checks['redis']).toMatchObject({ status: 'down', required: true });
      expect(down.body.data.checks['database']).toMatchObject({ status: 'up' });
      expect(down.ms).toBeLessThan(2500);
      expect(down.text).not.toContain(String(port));
      // Liveness is not readiness: the process is fine.
      expect((await rawRequest(own.server.url, 'GET', '/api/health')).status).toBe(200);
      redis = await startPrivateRedis(port);
      expect((await eventually(() => ready(own.server.url), (value) => value.status === 200)).body.data.checks['redis']).toMatchObject({ status: 'up' });
    } finally {
      await own.close();
      await redis.stop();
    }
  }, 40_000);

  it('answers 503 from a Redis port nobody listens on, at once', async () => {
    const own = await startOwnServer({ redisUrl: `redis://127.0.0.1:${await freePort()}` });
    try {
      const answer = await eventually(() => ready(own.server.url), (value) => value.body.data.checks['redis']?.error === 'ECONNREFUSED');
      expect(answer.status).toBe(503);
      expect(answer.body.data.checks['redis']).toMatchObject({ status: 'down', required: true, error: 'ECONNREFUSED' });
      expect(answer.ms).toBeLessThan(1000);
    } finally {
      await own.close();
    }
  });

  it('answers 503 draining from the moment close() starts, while the drain delay still serves everything else', async () => {
    const own = await startOwnServer({ drainDelayMs: 1500 });
    try {
      expect((await ready(own.server.url)).status).toBe(200);
      const closing = own.server.close();
      const answer = await ready(own.server.url);
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ message: 'Not ready: the instance is draining.', data: { ready: false, draining: true } });
      expect(answer.body.data.checks['database']).toMatchObject({ status: 'up' });
      expect((await rawRequest(own.server.url, 'GET', '/api/health')).status).toBe(200);
      expect((await rawRequest(own.server.url, 'GET', '/api/config')).status).toBe(200);
      await closing;
    } finally {
      await own.close();
    }
  });

  it('reports a saturated hosted-agent pool without making the instance unready', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'confab-ops-'));
    const database = await openDatabase({ databaseUrl: undefined, dataDir });
    const readiness = new Readiness({
      config: resolveConfig({ dataDir, secret: 'ops' }),
      database,
      files: new DiskFileStore(dataDir),
      agentPools: new Map([['data', () => ({ running: 2, queued: 3, saturated: true })]]),
    });
    try {
      const answer = await readiness.check();
      expect(answer).toMatchObject({ code: 200, data: { ready: true, checks: { agents: { status: 'saturated', required: false, pools: { data: { running: 2, queued: 3 } } } } } });
      readiness.startDraining();
      expect(await readiness.check()).toMatchObject({ code: 503, message: 'Not ready: the instance is draining.' });
    } finally {
      readiness.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe('the file bucket and the mail relay: reported, never a 503', () => {
    let bucket: TestBucket;
    let relay: SMTPServer;
    let relayPort: number;
    let silent: Server;
    let silentPort: number;

    beforeAll(async () => {
      bucket = await startTestBucket();
      relay = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], logger: false, onData: (stream, _session, done) => stream.resume().on('end', () => done()) });
      await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
      relayPort = (relay.server.address() as { port: number }).port;
      // Accepts connections and never says a word: a relay that hangs.
      silent = createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      silentPort = (silent.address() as { port: number }).port;
    });

    afterAll(async () => {
      await bucket?.close();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
      silent.close();
    });

    it('HeadBuckets the bucket: up, then down while s3rver is stopped (still 200), then up again', async () => {
      const own = await startOwnServer(bucket.serverOptions('ops/'));
      try {
        const up = await ready(own.server.url);
        expect(up.status).toBe(200);
        expect(up.body.data.checks['files']).toMatchObject({ status: 'up', required: false });
        await bucket.stop();
        const down = await ready(own.server.url);
        expect(down.status).toBe(200);
        expect(down.body.data.ready).toBe(true);
        expect(down.body.data.checks['files']).toMatchObject({ status: 'down', required: false });
        expect(down.ms).toBeLessThan(2500);
        expect(down.text).not.toContain(bucket.endpoint);
        await bucket.start();
        expect((await eventually(() => ready(own.server.url), (value) => value.body.data.checks['files']?.status === 'up')).body.data.checks['files']?.status).toBe('up');
      } finally {
        await own.close();
      }
    });

    it('verifies the relay: up for a real SMTP server, down (still 200) for a closed port, and a relay that never answers is cut at the bound', async () => {
      const [working, closed, hanging] = await Promise.all([
        startOwnServer({ smtpUrl: `smtp://127.0.0.1:${relayPort}` }),
        startOwnServer({ smtpUrl: `smtp://relay-user:relay-SECRET@127.0.0.1:${await freePort()}` }),
        startOwnServer({ smtpUrl: `smtp://127.0.0.1:${silentPort}` }),
      ]);
      try {
        const up = await ready(working.server.url);
        expect(up.status).toBe(200);
        expect(up.body.data.checks['mail']).toMatchObject({ status: 'up', required: false });
        const down = await ready(closed.server.url);
        expect(down.status).toBe(200);
        expect(down.body.data.checks['mail']).toMatchObject({ status: 'down', required: false });
        expect(down.text).not.toMatch(/relay-SECRET|relay-user/);
        const slow = await ready(hanging.server.url);
        expect(slow.status).toBe(200);
        expect(slow.body.data.checks['mail']).toMatchObject({ status: 'down' });
        expect(slow.ms).toBeLessThan(3000);
      } finally {
        await Promise.all([working.close(), closed.close(), hanging.close()]);
      }
    });
  });
});

/** Prometheus text: every sample line parsed (name, labels, value); a line that does not parse fails the test. */
function parsePrometheus(text: string): { samples: { name: string; labels: Record<string, string>; value: number }[]; types: Map<string, string> } {
  const samples: { name: string; labels: Record<string, string>; value: number }[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type !== null) {
      types.set(type[1] as string, type[2] as string);
      continue;
    }
    if (line.startsWith('# HELP ')) continue;
    // Values as Prometheus reads them (Go's ParseFloat: NaN and Inf in any case; prom-client writes 'Nan').
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|[Nn][Aa][Nn]|[+-]?[Ii]nf)$/i.exec(line);
    if (sample === null) throw new Error(`not Prometheus text: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (sample[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1] as string] = pair[2] as string;
    const text = (sample[3] as string).toLowerCase();
    samples.push({ name: sample[1] as string, labels, value: text === 'nan' ? Number.NaN : text.endsWith('inf') ? (text.startsWith('-') ? -Infinity : Infinity) : Number(text) });
  }
  return { samples, types };
}

function valueOf(text: string, name: string, labels: Record<string, string> = {}): number {
  const found = parsePrometheus(text).samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  return found.reduce((total, sample) => total + sample.value, 0);
}

describe('/metrics', () => {
  let testServer: TestServer;
  let openai: FakeOpenAI;
  const sockets: TestSocket[] = [];

  const scrape = async (url = testServer.url) => {
    const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    return response.text();
  };

  beforeAll(async () => {
    openai = await startFakeOpenAI();
    testServer = await startTestServer(sqlite, {
      metricsToken,
      messagesPerUserPerSecond: 1,
      openaiApiKey: 'sk-server-openai-0123456789',
      openaiBaseUrl: openai.baseUrl,
      openaiModel: 'gpt-test',
      aiTimeoutMs: 5000,
    });
    // The first account of a server is its admin, who may make a persona (a hosted agent).
    const admin = await registerUser(testServer);
    const created = await rawRequest(testServer.url, 'POST', '/api/admin/confab-agents', { token: admin.pb.authStore.token, body: { name: 'Gauge', username: 'gauge', description: 'You answer briefly.' } });
    expect(created.status, created.text).toBe(200);
  });

  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await testServer?.close();
    await openai?.close();
  });

  it('is off by default: 404 JSON, not the web app', async () => {
    const plain = await startTestServer(sqlite);
    try {
      const answer = await rawRequest(plain.url, 'GET', '/metrics', { token: `Bearer ${metricsToken}` });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ status: 404, message: "The requested resource wasn't found.", data: {} });
    } finally {
      await plain.close();
    }
  });

  it('is 404 without a token, 401 with a clear error for a wrong one, and served with the right one', async () => {
    expect((await rawRequest(testServer.url, 'GET', '/metrics')).status).toBe(404);
    const wrong = await fetch(`${testServer.url}/metrics`, { headers: { authorization: 'Bearer not-the-metrics-token' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(await wrong.json()).toEqual({ status: 401, message: 'The metrics token is wrong: send Authorization: Bearer <CONFAB_METRICS_TOKEN>.', data: {} });
    const text = await scrape();
    const { samples, types } = parsePrometheus(text);
    expect(samples.length).toBeGreaterThan(20);
    for (const name of ['confab_http_requests_total', 'confab_messages_sent_total', 'confab_rate_limit_refusals_total', 'confab_agent_replies_total', 'confab_ai_tokens_total', 'confab_agent_mentions_delivered_total']) {
      expect(types.get(name)).toBe('counter');
    }
    expect(types.get('confab_websocket_connections')).toBe('gauge');
    expect(types.get('confab_mail_queue_depth')).toBe('gauge');
    expect(types.get('confab_fanout_latency_seconds')).toBe('histogram');
    expect(types.get('confab_http_request_duration_seconds')).toBe('histogram');
    expect(types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
  });

  it('counts requests by route pattern and status, never the URL', async () => {
    const user = await registerUser(testServer);
    const before = await scrape();
    for (let index = 0; index < 3; index += 1) expect((await rawRequest(testServer.url, 'GET', '/api/config')).status).toBe(200);
    const missing = await rawRequest(testServer.url, 'GET', '/api/collections/chats/records/zzzzzzzzzzzzzzz', { token: user.pb.authStore.token });
    expect(missing.status).toBe(404);
    const after = await scrape();
    expect(valueOf(after, 'confab_http_requests_total', { method: 'GET', route: '/api/config', status: '200' }) - valueOf(before, 'confab_http_requests_total', { method: 'GET', route: '/api/config', status: '200' })).toBe(3);
    expect(valueOf(after, 'confab_http_requests_total', { route: '/api/collections/:collection/records/:id', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'confab_http_request_duration_seconds_count', { route: '/api/config', status: '200' })).toBeGreaterThanOrEqual(3);
    expect(after).not.toContain('zzzzzzzzzzzzzzz');
  });

  it('moves with sends, sockets, fan-outs and rate-limit refusals', async () => {
    const ann = await registerUser(testServer);
    const chat = await createChat(ann, { name: 'Counted' });
    const before = await scrape();
    const socket = await authenticatedSocket(testServer.url, ann.pb.authStore.token);
    sockets.push(socket);
    await socket.join(chat.id);
    expect(valueOf(await scrape(), 'confab_websocket_connections')).toBe(valueOf(before, 'confab_websocket_connections') + 1);

    await postMessage(ann, chat.id, 'counted once');
    await socket.next((frame) => frame.type === 'new_message');
    const sent = await scrape();
    expect(valueOf(sent, 'confab_messages_sent_total', { author: 'person' }) - valueOf(before, 'confab_messages_sent_total', { author: 'person' })).toBe(1);
    expect(valueOf(sent, 'confab_fanout_latency_seconds_count') - valueOf(before, 'confab_fanout_latency_seconds_count')).toBe(1);

    // One message a second, bursts of two: the fourth at once is refused.
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1) {
      const answer = await rawRequest(testServer.url, 'POST', '/api/collections/messages/records', { token: ann.pb.authStore.token, body: { chat: chat.id, encryptedContent: `burst ${index}` } });
      statuses.push(answer.status);
    }
    expect(statuses).toContain(429);
    const refused = await scrape();
    expect(valueOf(refused, 'confab_rate_limit_refusals_total', { limit: 'messagesPerUser' }) - valueOf(before, 'confab_rate_limit_refusals_total', { limit: 'messagesPerUser' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(refused, 'confab_rate_limit_refusals_total', { limit: 'signupsPerIp' })).toBe(0);

    await socket.close();
    const closed = await eventually(() => scrape(), (text) => valueOf(text, 'confab_websocket_connections') === valueOf(before, 'confab_websocket_connections'));
    expect(valueOf(closed, 'confab_websocket_connections')).toBe(valueOf(before, 'confab_websocket_connections'));
  });

  it('counts a hosted agent mention delivered, its reply, and the AI tokens it used by provider', async () => {
    const ann = await registerUser(testServer);
    const chat = await createChat(ann, { name: 'Asking' });
    const socket = await authenticatedSocket(testServer.url, ann.pb.authStore.token);
    sockets.push(socket);
    await socket.join(chat.id);
    openai.enqueue({ kind: 'text', chunks: ['Short ', 'answer.'], usage: { prompt: 11, completion: 7 } });
    const before = await scrape();
    await postMessage(ann, chat.id, '@gauge how are you?');
    await socket.next((frame) => frame.type === 'new_message' && (frame['message'] as { author_username?: string }).author_username === 'gauge', 10_000);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('confab_agent_mentions_delivered_total', { agent: 'hosted' })).toBe(1);
    expect(moved('confab_agent_replies_total', { agent: 'hosted' })).toBe(1);
    expect(moved('confab_messages_sent_total', { author: 'agent' })).toBe(1);
    expect(moved('confab_ai_tokens_total', { provider: 'openai', direction: 'input' })).toBe(11);
    expect(moved('confab_ai_tokens_total', { provider: 'openai', direction: 'output' })).toBe(7);
  });

  it('serves an allow-listed peer without a token, judged by the TCP peer and never by X-Forwarded-For', async () => {
    const [allowed, elsewhere] = await Promise.all([
      startOwnServer({ metricsAllow: ['10.0.0.0/8', '127.0.0.1'] }),
      startOwnServer({ metricsAllow: ['10.0.0.0/8'], trustProxy: true }),
    ]);
    try {
      const served = await fetch(`${allowed.server.url}/metrics`);
      expect(served.status).toBe(200);
      expect(parsePrometheus(await served.text()).types.get('confab_http_requests_total')).toBe('counter');
      const forged = await fetch(`${elsewhere.server.url}/metrics`, { headers: { 'x-forwarded-for': '10.1.2.3' } });
      expect(forged.status).toBe(404);
    } finally {
      await Promise.all([allowed.close(), elsewhere.close()]);
    }
  });
});
