/**
 * The guarded forward proxy that is headless Chromium's only way out (docs/SECURITY.md H8), spoken to
 * directly, without a browser: plain http requests and CONNECT tunnels are judged by the
 * fetcher's guard on the resolved address, a refused target is never reached (the local target
 * counts connections), an allowed one is, and the byte budget cuts every connection.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolver } from '../src/agents/tools/addressGuard';
import { startGuardedProxy, type GuardedProxy } from '../src/agents/tools/guardedProxy';
import { startCountingSite, type CountingSite } from './support/countingSite';

type Site = CountingSite;

function startSite(): Promise<Site> {
  return startCountingSite((incoming, response) => {
    if (incoming.url === '/big') return void response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(300 * 1024, 1));
    response.writeHead(200, { 'content-type': 'text/plain', 'x-host-seen': incoming.headers.host ?? '' }).end('hello from the site');
  });
}

/** A GET of an absolute URL through the proxy, as a browser sends it. */
function viaProxy(proxy: GuardedProxy, url: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port: Number(port), method: 'GET', path: url, headers: { host: new URL(url).host } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The proxy's first answer line to `CONNECT authority`. */
function connectVia(proxy: GuardedProxy, authority: string): Promise<string> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`));
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(answer.split('\r\n')[0] ?? '');
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
  });
}

const toLoopback: Resolver = async (hostname) => {
  if (hostname === 'inside.example') return [{ address: '127.0.0.1', family: 4 }];
  throw new Error('not found');
};

describe('the guarded proxy of headless Chromium', () => {
  let target: Site;
  let allowed: Site;

  beforeAll(async () => {
    target = await startSite();
    allowed = await startSite();
  });

  afterAll(async () => {
    await target?.close();
    await allowed?.close();
  });

  it('refuses requests and tunnels to private addresses in every spelling, and never reaches them', async () => {
    const proxy = await startGuardedProxy({ resolver: toLoopback });
    try {
      for (const url of [
        `http://127.0.0.1:${target.port}/`,
        `http://0x7f000001:${target.port}/`,
        `http://[::ffff:127.0.0.1]:${target.port}/`,
        `http://inside.example:${target.port}/`,
        'http://169.254.169.254/latest/meta-data/',
      ]) {
        const answer = await viaProxy(proxy, url);
        expect(answer.status, url).toBe(403);
        expect(answer.headers['x-confab-refused'], url).toBe('1');
        expect(answer.body, url).toMatch(/I only reach public addresses\.$/);
      }
      for (const authority of [`127.0.0.1:${target.port}`, `[::1]:${target.port}`, `inside.example:${target.port}`, '169.254.169.254:443']) {
        expect(await connectVia(proxy, authority), authority).toBe('HTTP/1.1 403 Forbidden');
      }
      expect(await connectVia(proxy, 'public.example:25')).toBe('HTTP/1.1 403 Forbidden');
      expect(proxy.refusals.map((refusal) => refusal.error.code)).toEqual([...Array<string>(9).fill('refused_address'), 'refused_port']);
      expect(target.connections).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it('forwards to an allowed host, with its Host header, by request and by tunnel', async () => {
    const proxy = await startGuardedProxy({ allowHosts: [`127.0.0.1:${allowed.port}`] });
    try {
      const answer = await viaProxy(proxy, `http://127.0.0.1:${allowed.port}/page?x=1`);
      expect(answer).toMatchObject({ status: 200, body: 'hello from the site' });
      expect(answer.headers['x-host-seen']).toBe(`127.0.0.1:${allowed.port}`);
      expect(allowed.requests).toContain('/page?x=1');
      expect(await connectVia(proxy, `127.0.0.1:${allowed.port}`)).toBe('HTTP/1.1 200 Connection Established');
      // The allow-list names a port, not a host: the target's port stays refused.
      expect((await viaProxy(proxy, `http://127.0.0.1:${target.port}/`)).status).toBe(403);
      expect(target.connections).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it('cuts everything once the page has used its byte budget', async () => {
    const proxy = await startGuardedProxy({ allowHosts: [`127.0.0.1:${allowed.port}`], maxBytes: 100 * 1024 });
    try {
      const answer = await viaProxy(proxy, `http://127.0.0.1:${allowed.port}/big`).catch((error: unknown) => error);
      expect(answer instanceof Error || (answer as { body: string }).body.length < 300 * 1024).toBe(true);
      expect(proxy.exceeded).toBe(true);
      expect((await viaProxy(proxy, `http://127.0.0.1:${allowed.port}/after`)).status).toBe(507);
    } finally {
      await proxy.close();
    }
  });
});
