import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { AllowList, systemResolver, type ResolvedAddress, type Resolver } from './addressGuard';
import { checkedAddress, defaultFetchMaxBytes, FetchError } from './fetcher';

/**
 * The one way out of @browse's headless Chromium (docs/SECURITY.md H8): a forward proxy on 127.0.0.1 that
 * every request of a rendered page goes through (the context's `proxy`, loopback included:
 * Playwright adds `<-loopback>` to the bypass list, so even 127.0.0.1 is not reached directly).
 *
 * - Plain http: the absolute URL of the request is judged by the same guard as the fetcher
 *   (checkedAddress: scheme, port, the name resolved once, every address judged), and the request
 *   is sent to exactly that checked address, with the page's Host header.
 * - https (and anything else Chromium tunnels): CONNECT host:port is judged the same way and the
 *   tunnel is opened to the checked address. No name is ever resolved twice, so there is no DNS
 *   rebinding window; Chromium resolves nothing itself (a proxied browser leaves names to the proxy).
 * - Upgrades (ws:// through the proxy) are refused; the renderer also closes every WebSocket.
 * - Bytes from the web are counted across all requests; past `maxBytes` every connection is cut.
 *
 * One proxy serves one rendering and is closed with it, so a page's stragglers die with it.
 * It listens on loopback only; any local process could use it, but it reaches nothing the
 * guarded fetcher would not (public addresses and the operator's allow-list).
 */

export interface GuardedProxyOptions {
  allowHosts?: readonly string[];
  resolver?: Resolver;
  /** Bytes received from the web, all requests together. Default 5 MB. */
  maxBytes?: number;
}

export interface GuardedProxy {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Requests the guard refused (in order): the URL or host:port asked, and the refusal. */
  refusals: { target: string; error: FetchError }[];
  /** Whether the byte budget ran out (every connection was then cut). */
  readonly exceeded: boolean;
  /** Bytes received from the web so far. */
  readonly bytes: number;
  close(): Promise<void>;
}

/** Headers that belong to one hop, never forwarded. */
const hopHeaders = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || hopHeaders.has(name.toLowerCase())) continue;
    kept[name] = value;
  }
  return kept;
}

export async function startGuardedProxy(options: GuardedProxyOptions = {}): Promise<GuardedProxy> {
  const allowList = new AllowList(options.allowHosts);
  const resolver = options.resolver ?? systemResolver;
  const maxBytes = options.maxBytes ?? defaultFetchMaxBytes;
  const sockets = new Set<Socket>();
  const refusals: GuardedProxy['refusals'] = [];
  let bytes = 0;
  let exceeded = false;

  const cutAll = () => {
    exceeded = true;
    for (const socket of sockets) socket.destroy();
  };
  /** Counts bytes from the web; false (and everything cut) once over the budget. */
  const count = (length: number): boolean => {
    bytes += length;
    if (bytes > maxBytes && !exceeded) cutAll();
    return !exceeded;
  };
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };

  /** The guard's verdict on a target; a refusal is recorded and answered as undefined. */
  const judge = async (target: URL, shown: string): Promise<ResolvedAddress | undefined> => {
    try {
      return await checkedAddress(target, allowList, resolver);
    } catch (error) {
      refusals.push({ target: shown, error: error instanceof FetchError ? error : new FetchError('network', `I could not reach ${shown}.`) });
      return undefined;
    }
  };

  const refuse = (response: ServerResponse, status: number, text: string) => {
    if (response.headersSent) return void response.destroy();
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-confab-refused': '1', connection: 'close' }).end(text);
  };

  const onRequest = async (incoming: IncomingMessage, response: ServerResponse) => {
    let target: URL;
    try {
      target = new URL(incoming.url ?? '');
    } catch {
      return refuse(response, 400, 'Only absolute http URLs go through this proxy.');
    }
    if (target.protocol !== 'http:') return refuse(response, 400, 'Only http goes through this proxy as a request; https uses CONNECT.');
    if (exceeded) return refuse(response, 507, 'The page is larger than its budget.');
    const address = await judge(target, target.href);
    if (address === undefined) return refuse(response, 403, refusals.at(-1)?.error.message ?? 'Refused.');
    const upstream = httpRequest({
      host: address.address,
      family: address.family,
      port: Number(target.port || 80),
      method: incoming.method,
      path: `${target.pathname}${target.search}`,
      headers: { ...forwardedHeaders(incoming.headers), host: target.host, connection: 'close' },
      agent: false,
    });
    upstream.on('socket', (socket) => track(socket));
    upstream.on('response', (answer) => {
      response.writeHead(answer.statusCode ?? 502, forwardedHeaders(answer.headers));
      answer.on('data', (chunk: Buffer) => {
        if (count(chunk.length)) response.write(chunk);
      });
      answer.on('end', () => response.end());
      answer.on('error', () => response.destroy());
    });
    upstream.on('error', () => refuse(response, 502, `I could not reach ${target.host}.`));
    incoming.pipe(upstream);
  };

  const server = createServer((incoming, response) => void onRequest(incoming, response));
  server.on('connection', track);
  server.on('connect', (incoming: IncomingMessage, client: Socket, head: Buffer) => {
    void (async () => {
      track(client);
      const authority = incoming.url ?? '';
      let target: URL;
      try {
        // CONNECT carries host:port; judged as the https URL of that authority.
        target = new URL(`https://${authority}/`);
        if (target.port === '' && !/:443$/.test(authority)) throw new Error('no port');
      } catch {
        return void client.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
      }
      const address = exceeded ? undefined : await judge(target, authority);
      if (address === undefined) return void client.end('HTTP/1.1 403 Forbidden\r\nx-confab-refused: 1\r\nconnection: close\r\n\r\n');
      const upstream = connect({ host: address.address, port: Number(target.port || 443), family: address.family });
      track(upstream);
      upstream.once('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.on('data', (chunk: Buffer) => {
          if (count(chunk.length)) client.write(chunk);
        });
        client.pipe(upstream);
        upstream.once('end', () => client.end());
        client.once('end', () => upstream.end());
      });
      upstream.once('error', () => client.destroy());
      client.once('error', () => upstream.destroy());
      client.once('close', () => upstream.destroy());
    })();
  });
  // ws:// asked of the proxy as a plain request with Upgrade: never.
  server.on('upgrade', (_incoming: IncomingMessage, client: Socket) => {
    client.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n');
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refusals,
    get exceeded() {
      return exceeded;
    },
    get bytes() {
      return bytes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
