/**
 * The data directory is private to the account the server runs as (docs/SECURITY.md A14): the
 * database and its WAL, the secret, uploads and outbox mails are 0600, every folder 0700, also
 * for a server embedded in a process with the usual umask 022 (as this test process is). A data
 * dir someone left wider is named in the log at start-up and tightened.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/index';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';
import { logCapture } from './support/logCapture';

const variants = await databaseVariants();

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Every file and folder under `root` (root included) with its mode, as `relative path: 0oNNN`. */
function modes(root: string): Record<string, string> {
  const found: Record<string, string> = {};
  const visit = (path: string) => {
    const stat = statSync(path);
    found[relative(root, path) || '.'] = `${stat.isDirectory() ? 'dir' : 'file'} ${(stat.mode & 0o777).toString(8)}`;
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return found;
}

describe.each(variants)('data file modes ($name)', (variant) => {
  let testServer: TestServer;

  beforeAll(async () => {
    testServer = await startTestServer(variant, { publicUrl: 'https://confab.example' });
  });

  afterAll(async () => {
    await testServer?.close();
  });

  it('keeps every data file 0600 and every data folder 0700 after a message, an upload and a mail', async () => {
    const dana = await registerUser(testServer, { email: 'dana-modes@example.test' });
    const chat = await createChat(dana, { name: 'Modes' });
    await postMessage(dana, chat.id, 'hello');
    const form = new FormData();
    form.append('chat', chat.id);
    form.append('file', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'table.csv');
    const upload = await fetch(`${testServer.url}/api/collections/files/records`, { method: 'POST', headers: { authorization: dana.pb.authStore.token }, body: form });
    expect(upload.status).toBe(200);
    const reset = await rawRequest(testServer.url, 'POST', '/api/collections/users/request-password-reset', { body: { email: 'dana-modes@example.test' } });
    expect(reset.status).toBe(204);

    const found = modes(testServer.dataDir);
    const expected = ['secret', 'outbox', 'files'];
    if (variant.name === 'sqlite') expected.push('confab.db', 'confab.db-wal', 'confab.db-shm');
    for (const name of expected) expect(Object.keys(found), name).toContain(name);
    expect(Object.keys(found).some((path) => path.startsWith('outbox/'))).toBe(true);
    expect(Object.keys(found).some((path) => path.startsWith(`files/${chat.id}/`))).toBe(true);
    const wider = Object.entries(found).filter(([, mode]) => mode !== 'dir 700' && mode !== 'file 600');
    expect(wider).toEqual([]);
  });
});

describe.each(variants)('a data dir left wider ($name)', (variant) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'confab-wide-'));

  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is named in a start-up warning and tightened: the folder to 0700, its files to 0600', async () => {
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'secret'), 'a-secret-left-readable-by-everyone\n', { mode: 0o644 });
    mkdirSync(join(dataDir, 'outbox'), { mode: 0o755 });
    writeFileSync(join(dataDir, 'outbox', 'old.eml'), 'Subject: old\r\n\r\nold\r\n', { mode: 0o644 });
    chmodSync(join(dataDir, 'secret'), 0o644);
    chmodSync(join(dataDir, 'outbox'), 0o755);
    chmodSync(join(dataDir, 'outbox', 'old.eml'), 0o644);
    // An empty file is a new database to SQLite: one left 0644 by an earlier version.
    if (variant.name === 'sqlite') writeFileSync(join(dataDir, 'confab.db'), '', { mode: 0o644 });
    const schema = `test_modes_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const databaseUrl = variant.baseUrl === undefined ? '' : `${variant.baseUrl}?schema=${schema}`;
    const log = logCapture();
    const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, databaseUrl, smtpUrl: '', inboundSmtp: 'off', logger: true, logStream: log.stream, logFormat: 'json' });
    try {
      const warning = log.lines().find((line) => line['level'] === 40 && String(line['msg']).includes('data'));
      expect(warning, JSON.stringify(log.lines())).toBeDefined();
      expect(JSON.stringify(warning)).toContain(dataDir);
      // The warning names where, never what: the secret's value stays out of the log.
      expect(JSON.stringify(log.lines())).not.toContain('a-secret-left-readable-by-everyone');
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(join(dataDir, 'secret'))).toBe(0o600);
      expect(modeOf(join(dataDir, 'outbox'))).toBe(0o700);
      expect(modeOf(join(dataDir, 'outbox', 'old.eml'))).toBe(0o600);
      if (variant.name === 'sqlite') for (const name of ['confab.db', 'confab.db-wal', 'confab.db-shm']) expect(modeOf(join(dataDir, name)), name).toBe(0o600);
    } finally {
      await server.close();
      if (variant.baseUrl !== undefined) {
        const { default: pg } = await import('pg');
        const client = new pg.Client({ connectionString: variant.baseUrl });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      }
    }
  });
});
