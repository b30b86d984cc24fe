/**
 * The CLI and the SDK as this server serves them (GET /api/packages/…): real tarballs, unpacked
 * with tar and run with Node. Needs the built packages (`pnpm -r build`, as `pnpm test` does).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';

const workspaceVersion = (folder: string) =>
  (JSON.parse(readFileSync(new URL(`../../${folder}/package.json`, import.meta.url), 'utf8')) as { version: string }).version;

describe('the packages a server serves', () => {
  let testServer: TestServer;
  let scratch: string;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'confab-served-packages-'));
    testServer = await startTestServer({ name: 'sqlite', baseUrl: undefined });
  });
  afterAll(async () => {
    await testServer?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Downloads a tarball and unpacks it with tar into its own folder; answers the folder. */
  async function unpack(path: string): Promise<string> {
    const response = await fetch(`${testServer.url}${path}`);
    expect(response.status, path).toBe(200);
    const folder = mkdtempSync(join(scratch, 'unpacked-'));
    writeFileSync(join(folder, 'package.tgz'), Buffer.from(await response.arrayBuffer()));
    execFileSync('tar', ['-xzf', 'package.tgz'], { cwd: folder });
    return join(folder, 'package');
  }

  it('lists the CLI and the SDK at this server’s versions', async () => {
    const response = await rawRequest(testServer.url, 'GET', '/api/packages');
    expect(response.status).toBe(200);
    const cli = workspaceVersion('cli');
    const client = workspaceVersion('client');
    expect(response.body).toEqual({
      packages: [
        { name: '@confab/cli', version: cli, file: `confab-cli-${cli}.tgz`, url: `${testServer.url}/api/packages/confab-cli-${cli}.tgz` },
        { name: '@confab/client', version: client, file: `confab-client-${client}.tgz`, url: `${testServer.url}/api/packages/confab-client-${client}.tgz` },
      ],
    });
  });

  it('serves a self-contained CLI: no dependencies to fetch, and its bin runs', async () => {
    const folder = await unpack('/api/packages/confab-cli.tgz');
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: '@confab/cli', version: workspaceVersion('cli'), bin: { confab: './dist/index.js' } });
    expect(manifest['dependencies']).toBeUndefined();
    expect(manifest['devDependencies']).toBeUndefined();
    expect(manifest['scripts']).toBeUndefined();
    expect(execFileSync(process.execPath, [join(folder, 'dist/index.js'), '--version'], { encoding: 'utf8' }).trim()).toBe(workspaceVersion('cli'));
  });

  it('serves the SDK with its published exports, the same bytes each time', async () => {
    const version = workspaceVersion('client');
    const folder = await unpack(`/api/packages/confab-client-${version}.tgz`);
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { exports: Record<string, unknown>; publishConfig?: unknown };
    expect(manifest.publishConfig).toBeUndefined();
    expect(JSON.stringify(manifest.exports)).not.toContain('@confab/source');
    expect(readFileSync(join(folder, 'dist/agent/index.js'), 'utf8')).toContain('simulateMention');
    const first = Buffer.from(await (await fetch(`${testServer.url}/api/packages/confab-client.tgz`)).arrayBuffer());
    const second = Buffer.from(await (await fetch(`${testServer.url}/api/packages/confab-client-${version}.tgz`)).arrayBuffer());
    expect(first.equals(second)).toBe(true);
  });

  it('says which version it has for another version, and what it serves for an unknown name', async () => {
    const version = workspaceVersion('cli');
    const other = await rawRequest(testServer.url, 'GET', '/api/packages/confab-cli-9.9.9.tgz');
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ status: 404, message: `This server has @confab/cli ${version}, not 9.9.9: install /api/packages/confab-cli-${version}.tgz.`, data: {} });
    const unknown = await rawRequest(testServer.url, 'GET', '/api/packages/left-pad.tgz');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ message: 'No package named left-pad.tgz. This server serves confab-cli.tgz and confab-client.tgz.' });
  });
});
