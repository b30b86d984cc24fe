import { mkdtempSync, statSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';

/** Static hosting and first-start behaviour; database-independent, so SQLite only. */
describe('hosting the web app and first start', () => {
  let testServer: TestServer;
  let webDir: string;

  beforeAll(async () => {
    webDir = mkdtempSync(join(tmpdir(), 'confab-web-'));
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Confab app</title>');
    writeFileSync(join(webDir, 'app.js'), 'console.log("app")');
    testServer = await startTestServer({ name: 'sqlite', baseUrl: undefined }, { webDir });
  });

  afterAll(async () => {
    await testServer?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('serves files and falls back to index.html for client routes', async () => {
    expect((await rawRequest(testServer.url, 'GET', '/app.js')).text).toContain('console.log');
    for (const path of ['/', '/login', '/reset-password?token=abc', '/chat/abc/options']) {
      const response = await rawRequest(testServer.url, 'GET', path);
      expect(response.status).toBe(200);
      expect(response.text).toContain('Confab app');
    }
  });

  it('keeps /api answers JSON', async () => {
    const response = await rawRequest(testServer.url, 'GET', '/api/unknown');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ status: 404, message: "The requested resource wasn't found.", data: {} });
  });

  it('generates a secret once and keeps it private', () => {
    const secretPath = join(testServer.dataDir, 'secret');
    expect(statSync(secretPath).mode & 0o777).toBe(0o600);
    expect(readFileSync(secretPath, 'utf8').trim().length).toBeGreaterThanOrEqual(40);
  });
});
