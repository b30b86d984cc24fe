import type { Browser, BrowserContext } from 'playwright-core';
import { AllowList, systemResolver, type Resolver } from './addressGuard';
import { startGuardedProxy, type GuardedProxy } from './guardedProxy';
import { checkedAddress, defaultFetchMaxBytes, defaultFetchTimeoutMs, FetchError, shortUrl } from './fetcher';

/**
 * Headless Chromium for @browse (docs/SECURITY.md H8), on when `CONFAB_BROWSE_CHROMIUM` names the binary.
 *
 * The security design: Chromium never touches the network itself. Each rendering gets its own
 * browser context whose proxy is a fresh guarded forward proxy on 127.0.0.1 (tools/guardedProxy.ts)
 * that resolves every host once, judges the address with the same guard as the fetcher
 * (CONFAB_FETCH_ALLOW_HOSTS respected) and connects to exactly that address: the document, every
 * subresource, every redirect, XHR and fetch go through it, loopback included (Playwright puts
 * `<-loopback>` in the context's bypass list). So there is no DNS-rebinding window and no request
 * the guard does not see. Besides: WebSockets are closed before they connect, service workers
 * are blocked, downloads are off, WebRTC may not use UDP outside the proxy, and the browser's own
 * background traffic (component updates, sync, safe browsing lists) is switched off. The whole
 * rendering has 10 s and 5 MB (bytes from the web, all requests together); then the context and
 * its proxy are closed. One browser is launched on first use and reused; `close` ends it.
 */

export interface RenderedPage {
  /** The URL the page ended on (after redirects). */
  url: string;
  /** The rendered DOM as HTML (`page.content()`), after the page's scripts ran. */
  html: string;
}

/** Renders a page; undefined when the URL is not a web page (a PDF or text: read it with the fetcher). */
export interface PageRenderer {
  render(url: string): Promise<RenderedPage | undefined>;
  close(): Promise<void>;
}

/** A renderer that could not work (the browser would not start); the caller reads the page without it. */
export class RendererUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RendererUnavailable';
  }
}

export interface ChromiumRendererOptions {
  /** The Chromium binary (CONFAB_BROWSE_CHROMIUM). */
  executablePath: string;
  allowHosts?: readonly string[];
  resolver?: Resolver;
  /** The whole rendering. Default 10 s. */
  timeoutMs?: number;
  /** Bytes from the web per rendering. Default 5 MB. */
  maxBytes?: number;
  /** Renderings at once; more wait their turn. Default 2. */
  concurrency?: number;
}

/** Flags of every launch: no sandbox (containers), no GPU, none of the browser's own traffic. */
export const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--no-pings',
  '--dns-prefetch-disable',
  '--disable-quic',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

const htmlTypes = /^(text\/html|application\/xhtml\+xml)$/;

export class ChromiumRenderer implements PageRenderer {
  private browser: Promise<Browser> | undefined;
  private closed = false;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly allowList: AllowList;
  private readonly resolver: Resolver;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;

  constructor(private readonly options: ChromiumRendererOptions) {
    this.allowList = new AllowList(options.allowHosts);
    this.resolver = options.resolver ?? systemResolver;
    this.timeoutMs = options.timeoutMs ?? defaultFetchTimeoutMs;
    this.maxBytes = options.maxBytes ?? defaultFetchMaxBytes;
  }

  /** The one browser, launched on first use; relaunched if it went away. */
  private launched(): Promise<Browser> {
    if (this.closed) return Promise.reject(new RendererUnavailable('the renderer is closed'));
    this.browser ??= (async () => {
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({
        executablePath: this.options.executablePath,
        headless: true,
        args: chromiumFlags,
        // Every context brings its own proxy; anything outside one goes to a proxy that does not exist.
        proxy: { server: 'http://per-context' },
        timeout: 30_000,
      });
      browser.on('disconnected', () => {
        this.browser = undefined;
      });
      return browser;
    })().catch((error: unknown) => {
      this.browser = undefined;
      throw new RendererUnavailable(`Chromium at ${this.options.executablePath} did not start`, { cause: error });
    });
    return this.browser;
  }

  private async turn(): Promise<() => void> {
    if (this.running >= (this.options.concurrency ?? 2)) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    return () => {
      this.running -= 1;
      this.waiting.shift()?.();
    };
  }

  async render(input: string): Promise<RenderedPage | undefined> {
    let url: URL;
    try {
      url = new URL(input.trim());
    } catch {
      throw new FetchError('invalid_url', `That is not a URL I can fetch: ${shortUrl(input)}`);
    }
    // The first address is judged before any browser work, for the same clear refusal as the fetcher's.
    await checkedAddress(url, this.allowList, this.resolver);
    const done = await this.turn();
    let proxy: GuardedProxy;
    try {
      proxy = await startGuardedProxy({ allowHosts: [...(this.options.allowHosts ?? [])], resolver: this.resolver, maxBytes: this.maxBytes });
    } catch (error) {
      done();
      throw new RendererUnavailable('the guarded proxy of the browser did not start', { cause: error });
    }
    let context: BrowserContext | undefined;
    let timedOut = false;
    let started = Date.now();
    const remaining = () => Math.max(1, this.timeoutMs - (Date.now() - started));
    let timer: NodeJS.Timeout | undefined;
    const timeout = () => new FetchError('timeout', `${shortUrl(url)} took longer than ${Math.round(this.timeoutMs / 100) / 10} s to render; I stopped.`);
    const tooLarge = () => new FetchError('too_large', `${shortUrl(url)} loads more than ${Math.round((this.maxBytes / 1024 / 1024) * 10) / 10} MB; I stopped.`);
    /** Why the document itself failed: the guard's refusal of a hop, the budget or the clock. */
    const failure = (error: unknown): Error => {
      if (error instanceof FetchError || error instanceof RendererUnavailable) return error;
      if (proxy.exceeded) return tooLarge();
      const text = String((error as Error | undefined)?.message ?? error);
      if (timedOut || /Timeout \d+ms exceeded/i.test(text)) return timeout();
      // The document failed before any subresource was asked for: a refusal is of its hops.
      const refused = proxy.refusals.at(0);
      if (refused !== undefined) return refused.error;
      return new FetchError('network', `I could not load ${shortUrl(url)} (${/net::[A-Z_]+/.exec(text)?.[0] ?? 'the browser failed'}).`);
    };
    try {
      // The browser's first launch is not the page's time: the clock starts once it is up.
      const browser = await this.launched();
      started = Date.now();
      timer = setTimeout(() => {
        timedOut = true;
        void context?.close().catch(() => undefined);
      }, this.timeoutMs);
      context = await browser.newContext({
        proxy: { server: proxy.url },
        acceptDownloads: false,
        serviceWorkers: 'block',
        ignoreHTTPSErrors: false,
        locale: 'en-US',
        viewport: { width: 1280, height: 900 },
      });
      // Never a WebSocket: each is closed before it reaches any server.
      await context.routeWebSocket(/.*/, (socket) => socket.close());
      const page = await context.newPage();
      let response: Awaited<ReturnType<typeof page.goto>>;
      try {
        response = await page.goto(url.href, { waitUntil: 'load', timeout: remaining() });
      } catch (error) {
        // A download (a PDF, a file) is not a web page: the fetcher reads it.
        if (/Download is starting/i.test(String((error as Error)?.message)) && proxy.refusals.length === 0 && !proxy.exceeded) return undefined;
        throw failure(error);
      }
      if (response === null) throw failure(new Error('no response'));
      if (response.headers()['x-confab-refused'] !== undefined) throw failure(new Error('refused'));
      if (response.status() < 200 || response.status() > 299) throw new FetchError('http_status', `${shortUrl(response.url())} answered ${response.status()}.`);
      const mediaType = (response.headers()['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (mediaType !== '' && !htmlTypes.test(mediaType)) return undefined;
      // Content that scripts fetch after `load`: wait a little for the network to go quiet.
      await page.waitForLoadState('networkidle', { timeout: Math.min(remaining(), 3_000) }).catch(() => undefined);
      const html = await page.content();
      if (proxy.exceeded) throw tooLarge();
      if (timedOut) throw timeout();
      // A page that navigated itself somewhere refused ends on Chromium's error page: keep the last real URL.
      const finalUrl = /^https?:/.test(page.url()) ? page.url() : response.url();
      return { url: finalUrl, html: html.length > this.maxBytes ? html.slice(0, this.maxBytes) : html };
    } catch (error) {
      throw failure(error);
    } finally {
      clearTimeout(timer);
      await context?.close().catch(() => undefined);
      await proxy.close();
      done();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    this.browser = undefined;
    if (browser !== undefined) await (await browser.catch(() => undefined))?.close().catch(() => undefined);
  }
}
