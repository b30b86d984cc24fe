import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher, FetchError, type FetchErrorCode } from '../src/agents/tools/fetcher';
import type { Resolver } from '../src/agents/tools/addressGuard';

/** A local HTTP server that counts the requests reaching it. */
interface CountingSite {
  port: number;
  requests: string[];
  close(): Promise<void>;
}

async function startSite(handle: (path: string, response: import('node:http').ServerResponse) => void): Promise<CountingSite> {
  const requests: string[] = [];
  const server: Server = createServer((incoming, response) => {
    requests.push(incoming.url ?? '');
    handle(incoming.url ?? '/', response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** A resolver where `public.example` and `rebind.example` (both "public" names) lead to 127.0.0.1. */
const hostileResolver: Resolver = async (hostname) => {
  if (hostname === 'public.example') return [{ address: '127.0.0.1', family: 4 }];
  if (hostname === 'mixed.example') return [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.1', family: 4 }];
  if (hostname === 'metadata.example') return [{ address: '169.254.169.254', family: 4 }];
  throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
};

async function refusal(promise: Promise<unknown>): Promise<FetchError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FetchError);
    return error as FetchError;
  }
  throw new Error('the fetch was not refused');
}

describe('the guarded fetcher', () => {
  let target: CountingSite;
  let redirector: CountingSite;
  let pages: CountingSite;

  beforeAll(async () => {
    target = await startSite((_path, response) => response.end('secret'));
    redirector = await startSite((path, response) => {
      const to = decodeURIComponent(path.slice(1));
      response.writeHead(302, { location: to }).end();
    });
    pages = await startSite((path, response) => {
      if (path === '/page') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<title>Hi</title><p>Grüße</p>');
      if (path === '/big') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let sent = 0;
        const pump = () => {
          while (sent < 8 * 1024 * 1024) {
            sent += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', pump);
          }
          response.end();
        };
        return pump();
      }
      if (path === '/big-declared') return void response.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(6 * 1024 * 1024) }).end();
      if (path === '/slow') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('a');
        return; // never ends
      }
      if (path === '/pdf') return void response.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7');
      if (path === '/binary') return void response.writeHead(200, { 'content-type': 'application/octet-stream' }).end('x');
      if (path === '/missing') return void response.writeHead(404).end();
      if (path.startsWith('/loop')) return void response.writeHead(302, { location: `/loop${path.length}` }).end();
      response.writeHead(404).end();
    });
  });

  afterAll(async () => {
    await Promise.all([target?.close(), redirector?.close(), pages?.close()]);
  });

  it('refuses the hostile corpus without the allow-list, and nothing reaches the target', async () => {
    const fetcher = createFetcher({ resolver: hostileResolver });
    const port = target.port;
    const corpus = [
      `http://127.0.0.1:${port}/`,
      `http://127.1:${port}/`,
      `http://127.0.0.2:${port}/`,
      `http://127.000.000.001:${port}/`,
      `http://0x7f000001:${port}/`,
      `http://0x7f.0.0.1:${port}/`,
      `http://2130706433:${port}/`,
      `http://017700000001:${port}/`,
      `http://0177.0.0.1:${port}/`,
      `http://127.0.0.1.:${port}/`,
      `http://%31%32%37.0.0.1:${port}/`,
      `http://[::1]:${port}/`,
      `http://[0:0:0:0:0:0:0:1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::127.0.0.1]:${port}/`,
      `http://[::]:${port}/`,
      `http://0.0.0.0:${port}/`,
      `http://0:${port}/`,
      `http://169.254.169.254/latest/meta-data/`,
      `http://0xA9FEA9FE/latest/meta-data/`,
      `http://metadata.example/latest/meta-data/`,
      `http://public.example:${port}/`,
      `http://mixed.example:${port}/`,
      `http://10.0.0.1/`, `http://192.168.1.1/`, `http://172.16.0.1/`, `http://100.64.0.1/`, `http://224.0.0.1/`,
      `http://[fd00:ec2::254]/`, `http://[fe80::1]/`,
    ];
    for (const url of corpus) {
      const error = await refusal(fetcher.fetch(url));
      expect(error.code, url).toBe('refused_address');
      expect(error.message, url).toMatch(/I can't fetch .*: it leads to .*I only reach public addresses\./);
    }
    expect(target.requests).toEqual([]);
  });

  it('refuses other schemes, credentials, bad ports and unknown names with clear errors', async () => {
    const fetcher = createFetcher({ resolver: hostileResolver });
    const cases: Array<[string, FetchErrorCode]> = [
      ['file:///etc/passwd', 'unsupported_scheme'],
      ['ftp://example.com/', 'unsupported_scheme'],
      ['gopher://127.0.0.1:25/', 'unsupported_scheme'],
      ['http://user:pw@public.example/', 'invalid_url'],
      ['not a url', 'invalid_url'],
      ['http://public.example:25/', 'refused_port'],
      ['http://nowhere.example/', 'not_found'],
    ];
    for (const [url, code] of cases) expect((await refusal(fetcher.fetch(url))).code, url).toBe(code);
    expect(target.requests).toEqual([]);
  });

  it('checks every redirect hop again: a redirect to a private address is refused before it is reached', async () => {
    const fetcher = createFetcher({ resolver: hostileResolver, allowHosts: [`127.0.0.1:${redirector.port}`] });
    for (const to of [`http://127.0.0.1:${target.port}/`, `http://0x7f000001:${target.port}/`, `http://[::ffff:127.0.0.1]:${target.port}/`, `http://public.example:${target.port}/`, 'http://169.254.169.254/']) {
      const error = await refusal(fetcher.fetch(`http://127.0.0.1:${redirector.port}/${encodeURIComponent(to)}`));
      expect(error.code, to).toBe('refused_address');
    }
    const scheme = await refusal(fetcher.fetch(`http://127.0.0.1:${redirector.port}/${encodeURIComponent('file:///etc/passwd')}`));
    expect(scheme.code).toBe('unsupported_scheme');
    expect(redirector.requests.length).toBe(6);
    expect(target.requests).toEqual([]);
  });

  it('fetches an allowed local page, follows redirects up to 5, and stops after', async () => {
    const fetcher = createFetcher({ allowHosts: [`127.0.0.1:${pages.port}`, `127.0.0.1:${redirector.port}`] });
    const page = await fetcher.fetch(`http://127.0.0.1:${pages.port}/page`);
    expect(page).toMatchObject({ status: 200, mediaType: 'text/html', url: `http://127.0.0.1:${pages.port}/page` });
    expect(page.body.toString('utf8')).toContain('Grüße');
    const redirected = await fetcher.fetch(`http://127.0.0.1:${redirector.port}/${encodeURIComponent(`http://127.0.0.1:${pages.port}/page`)}`);
    expect(redirected.url).toBe(`http://127.0.0.1:${pages.port}/page`);
    const loop = await refusal(fetcher.fetch(`http://127.0.0.1:${pages.port}/loop`));
    expect(loop.code).toBe('too_many_redirects');
    expect(loop.message).toContain('more than 5 times');
  });

  it('stops an oversize body, a slow body, other types and error statuses with clear errors; takes PDFs', async () => {
    const fetcher = createFetcher({ allowHosts: [`127.0.0.1:${pages.port}`], timeoutMs: 1_000 });
    const base = `http://127.0.0.1:${pages.port}`;
    const big = await refusal(fetcher.fetch(`${base}/big`));
    expect(big).toMatchObject({ code: 'too_large' });
    expect(big.message).toContain('larger than 5 MB');
    expect(await refusal(fetcher.fetch(`${base}/big-declared`))).toMatchObject({ code: 'too_large' });
    const started = Date.now();
    const slow = await refusal(fetcher.fetch(`${base}/slow`));
    expect(slow.code).toBe('timeout');
    expect(slow.message).toContain('took longer than 1 s');
    expect(Date.now() - started).toBeLessThan(3_000);
    // PDFs are fetched for their text (tools/pdfText.ts; pdfReading.test.ts reads real ones).
    expect(await fetcher.fetch(`${base}/pdf`)).toMatchObject({ mediaType: 'application/pdf' });
    expect(await refusal(fetcher.fetch(`${base}/binary`))).toMatchObject({ code: 'unsupported_type' });
    expect(await refusal(fetcher.fetch(`${base}/missing`))).toMatchObject({ code: 'http_status', message: expect.stringContaining('404') });
  });

  it('is not rebound: a name that answers public first and 127.0.0.1 after is resolved once, and the target is never reached', async () => {
    let answers = 0;
    const rebinding: Resolver = async () => {
      answers += 1;
      // 93.184.216.34 is public (and unreachable from a test machine); a second lookup would say 127.0.0.1.
      return [{ address: answers === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    };
    const fetcher = createFetcher({ resolver: rebinding, timeoutMs: 500 });
    const error = await refusal(fetcher.fetch(`http://rebind.example:${target.port}/`));
    expect(['timeout', 'network']).toContain(error.code);
    expect(answers).toBe(1);
    expect(target.requests).toEqual([]);
  });

  it('connects to the address it checked: the name is resolved once per hop, never again by the client', async () => {
    const asked: string[] = [];
    const resolver: Resolver = async (hostname) => {
      asked.push(hostname);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    // pinned.invalid exists for no system resolver: the page loads only if the connection uses the checked address.
    const fetcher = createFetcher({ resolver, allowHosts: [`pinned.invalid:${pages.port}`] });
    const page = await fetcher.fetch(`http://pinned.invalid:${pages.port}/page`);
    expect(page.body.toString('utf8')).toContain('<title>Hi</title>');
    expect(asked).toEqual(['pinned.invalid']);
  });
});
