/**
 * `npx @confab/server` is the whole product: the packed tarballs of @confab/client and
 * @confab/server, installed with npm into a fresh project outside the workspace, start a server
 * that serves the bundled reference app at / (compressed, cached like a production site), the
 * API, and the CLI and SDK as npm tarballs; `--no-web` serves the API only.
 *
 * Slow (a real `npm install`, which builds better-sqlite3). Where the release binary cannot be
 * downloaded, its install script compiles SQLite; to spare that, the workspace's own build of the
 * same better-sqlite3 version is offered as a local prebuild (prebuild-install's
 * `npm_config_better_sqlite3_local_prebuilds`). Another version is built as usual.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilListening, untilRefused, workspaceRoot } from './support/builtServer';

const built = ['packages/client/dist', 'packages/server/dist/bin.js', 'apps/reference/dist/index.html'].every((path) => existsSync(join(workspaceRoot, path)));
if (!built && process.env['CI']) throw new Error('The client, server and reference app must be built: run the README\'s test command.');

const installTimeoutMs = 30 * 60_000;

/** pnpm as the test command runs it (`pnpm test` sets npm_execpath), else through npx. */
function pnpm(args: string[], cwd: string): void {
  const execPath = process.env['npm_execpath'];
  if (execPath !== undefined && execPath.includes('pnpm') && /\.[cm]?js$/.test(execPath)) execFileSync(process.execPath, [execPath, ...args], { cwd, stdio: 'pipe' });
  else execFileSync('npx', ['-y', 'pnpm@10', ...args], { cwd, stdio: 'pipe' });
}

/** The workspace's better-sqlite3 build as the prebuild tarball prebuild-install looks for. */
function offerLocalSqlitePrebuild(directory: string): void {
  const requireFromServer = createRequire(join(workspaceRoot, 'packages/server/package.json'));
  const packageDir = dirname(requireFromServer.resolve('better-sqlite3/package.json'));
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  if (!existsSync(join(packageDir, 'build/Release/better_sqlite3.node'))) return;
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', join(directory, name), '-C', packageDir, 'build/Release/better_sqlite3.node']);
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end();
  });
}

interface Running {
  child: ChildProcess;
  url: string;
  /** SIGTERM to npx and the server, as a terminal's process group gets it; true once the port is closed. */
  stop(): Promise<boolean>;
}

/**
 * `npx confab-server <args>` in the installed project, in its own process group; resolves once it
 * listens. (npm exec does not pass signals on to the command, so the group gets them, as from a
 * terminal.)
 */
async function npxConfabServer(projectDir: string, args: string[]): Promise<Running> {
  const dataDir = mkdtempSync(join(tmpdir(), 'confab-packed-data-'));
  const child = spawn('npx', ['confab-server', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, ...args], {
    cwd: projectDir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', CONFAB_INBOUND_SMTP: 'off', CONFAB_WEB_DIR: '' },
  });
  const { url, exited } = await untilListening(child, 'npx confab-server');
  return {
    child,
    url,
    async stop() {
      const group = -(child.pid ?? 0);
      process.kill(group, 'SIGTERM');
      await exited;
      const done = await untilRefused(url, 15_000);
      if (!done) {
        try {
          process.kill(group, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      rmSync(dataDir, { recursive: true, force: true });
      return done;
    },
  };
}

describe.skipIf(!built)('the packed @confab/server, installed with npm', () => {
  let workDir: string;
  let projectDir: string;
  let installedWeb: string;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'confab-packed-'));
    const tarballs = join(workDir, 'tarballs');
    const prebuilds = join(workDir, 'prebuilds');
    projectDir = join(workDir, 'project');
    for (const directory of [tarballs, prebuilds, projectDir]) mkdirSync(directory);
    pnpm(['pack', '--pack-destination', tarballs], join(workspaceRoot, 'packages/client'));
    // prepack copies apps/reference/dist into the server's web/ and precompresses it.
    pnpm(['pack', '--pack-destination', tarballs], join(workspaceRoot, 'packages/server'));
    offerLocalSqlitePrebuild(prebuilds);
    writeFileSync(join(projectDir, 'package.json'), JSON.stringify({ name: 'confab-packed-test', private: true, type: 'module' }));
    const files = readdirSync(tarballs).map((name) => join(tarballs, name));
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...files], {
      cwd: projectDir,
      stdio: 'pipe',
      env: { ...process.env, npm_config_better_sqlite3_local_prebuilds: prebuilds },
      timeout: installTimeoutMs,
    });
    installedWeb = join(projectDir, 'node_modules/@confab/server/web');
  }, installTimeoutMs + 5 * 60_000);

  afterAll(() => {
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  });

  it('carries the built reference app, its bin shim and no sources', () => {
    const installed = join(projectDir, 'node_modules/@confab/server');
    expect(readFileSync(join(installedWeb, 'index.html'), 'utf8')).toBe(readFileSync(join(workspaceRoot, 'apps/reference/dist/index.html'), 'utf8'));
    expect(existsSync(join(installed, 'bin/confab-server.js'))).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(existsSync(join(installed, 'test'))).toBe(false);
  });

  it('serves the app at /, its assets compressed and cached for a year, and the API', async () => {
    const server = await npxConfabServer(projectDir, []);
    try {
      const page = await get(`${server.url}/`, { 'accept-encoding': 'br' });
      expect(page.status).toBe(200);
      expect(page.headers['content-encoding']).toBe('br');
      expect(page.headers['cache-control']).toBe('no-cache');
      const html = brotliDecompressSync(page.body).toString();
      expect(html).toContain('<div id="root">');
      // index.html as built, with the module preloads of each route from the shipped list.
      const preloads = JSON.parse(readFileSync(join(installedWeb, '.vite/routePreloads.json'), 'utf8')) as { routes: { route: string; files: string[] }[] };
      const filesOf = (route: string) => [...(preloads.routes.find((entry) => entry.route === route)?.files ?? [])].sort();
      const scriptsOf = (text: string) => [...text.matchAll(/<(?:script type="module"[^>]*\ssrc|link rel="modulepreload"[^>]*\shref)="([^"]+)"/g)].map((match) => match[1]).sort();
      expect(filesOf('/').length).toBeGreaterThan(0);
      expect(scriptsOf(html)).toEqual(filesOf('/'));
      const builtHtml = readFileSync(join(installedWeb, 'index.html'), 'utf8');
      expect(html.replace(/^\s*<link rel="modulepreload"[^>]*>\n/gm, '')).toBe(builtHtml.replace(/^\s*<link rel="modulepreload"[^>]*>\n/gm, ''));

      const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const asset = await get(`${server.url}${script}`, { 'accept-encoding': 'gzip, br' });
      expect(asset.status).toBe(200);
      expect(asset.headers['content-encoding']).toBe('br');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotliDecompressSync(asset.body).equals(readFileSync(join(installedWeb, script ?? '')))).toBe(true);

      const route = await get(`${server.url}/chat/anything`);
      expect(route.status).toBe(200);
      expect(scriptsOf(route.body.toString())).toEqual(filesOf('/chat/:id'));
      const unlisted = await get(`${server.url}/chat/anything/options`);
      expect(unlisted.body.toString()).toBe(builtHtml);
      // The list is read by the server, not served.
      expect((await get(`${server.url}/.vite/routePreloads.json`)).body.toString()).not.toContain('"routes"');

      const health = await fetch(`${server.url}/api/health`);
      expect(health.status).toBe(200);

      // The CLI (copied into bundled/cli on pack) and the SDK it depends on, for `npm install -g`.
      const served = (await (await fetch(`${server.url}/api/packages`)).json()) as { packages: Array<{ name: string }> };
      expect(served.packages.map((entry) => entry.name)).toEqual(['@confab/cli', '@confab/client']);
      const cli = await get(`${server.url}/api/packages/confab-cli.tgz`);
      expect(cli.status).toBe(200);
      expect([...cli.body.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    } finally {
      expect(await server.stop()).toBe(true);
    }
  }, 120_000);

  it('serves the API only with --no-web', async () => {
    const server = await npxConfabServer(projectDir, ['--no-web']);
    try {
      const page = await fetch(`${server.url}/`);
      expect(page.status).toBe(404);
      expect(page.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(true);
    }
  }, 120_000);
});
