/**
 * `confab-server backup` and `restore` (docs/OPERATIONS.md, Backups and restore), run as an
 * operator runs them: the real CLI from source, beside a real server in a process of its own that
 * keeps taking messages and uploads while the backup runs. Everything acknowledged before the
 * backup started is in it, and the backup is consistent (integrity check, every file row with its
 * file); restored into a fresh data dir, a server there lets the same people sign in and read
 * every such message (decrypted as sent) and download every such file byte for byte. A data dir
 * that holds a server's data is not overwritten without --force; a missing or wrong folder is a
 * clear error, and so is a damaged snapshot; a backup of an older schema restores, and the server
 * migrates it. A PostgreSQL configuration gets the pg_dump to run, and a bucket is named; where
 * PostgreSQL and its tools are at hand, that pg_dump, the backup, the printed pg_restore and the
 * restore bring a lost schema and data dir back.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupDataDir } from '../src/backup/backup';
import { startServer, type ConfabServer } from '../src/index';
import { migrateTo } from '../src/store/migrations/index';
import { workspaceRoot } from './support/builtServer';
import { registerOn, signedInOn } from './support/cluster';
import { databaseVariants } from './support/databases';
import type { RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startSourceServer, type SourceServer } from './support/sourceServer';

const postgres = (await databaseVariants()).find((variant) => variant.name === 'postgres');
/** The PostgreSQL round trip runs where pg_dump and pg_restore are installed (they are in CI's image; skipped elsewhere). */
const postgresTools = spawnSync('pg_dump', ['--version']).status === 0 && spawnSync('pg_restore', ['--version']).status === 0;

const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** The line of a command's output that starts with `program`: the pg_dump or pg_restore it says to run. */
function printedCommand(output: string, program: string): string {
  const line = output.split('\n').find((candidate) => candidate.trimStart().startsWith(`${program} `));
  if (line === undefined) throw new Error(`no ${program} line in:\n${output}`);
  return line.trim();
}

/** `confab-server <args>` from source, configured through the environment only, as an operator would. */
function cli(args: string[], environment: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--conditions=@confab/source', '--import', tsxLoader, join(workspaceRoot, 'packages/server/src/bin.ts'), ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...environment },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

interface SentMessage {
  id: string;
  chat: string;
  author: string;
  content: string;
}

interface SentFile {
  id: string;
  chat: string;
  file: string;
  uploader: string;
  bytes: Buffer;
}

const bearer = (user: RegisteredUser) => `Bearer ${user.pb.authStore.token}`;

async function upload(url: string, user: RegisteredUser, chatId: string, name: string, bytes: Buffer): Promise<{ id: string; file: string }> {
  const form = new FormData();
  form.set('chat', chatId);
  form.set('file', new Blob([new Uint8Array(bytes)]), name);
  const response = await fetch(`${url}/api/collections/files/records`, { method: 'POST', headers: { authorization: bearer(user) }, body: form });
  if (response.status !== 200) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id: string; file: string };
}

async function download(url: string, user: RegisteredUser, file: { id: string; file: string }): Promise<{ status: number; bytes: Buffer }> {
  const { token } = (await rawRequest(url, 'POST', '/api/files/token', { token: bearer(user) })).body as { token: string };
  const response = await fetch(`${url}/api/files/files/${file.id}/${file.file}?token=${token}`);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

/**
 * People talking and uploading: each sends message after message over HTTP, with a client id,
 * and every fifth turn uploads a file (text or binary). A message or file is recorded once its
 * answer arrived: acknowledged.
 */
function startTraffic(url: string, people: RegisteredUser[], chats: { id: string; members: string[] }[]) {
  const messages: SentMessage[] = [];
  const files: SentFile[] = [];
  let stopping = false;
  const talk = async (person: RegisteredUser, index: number) => {
    const theirChats = chats.filter((chat) => chat.members.includes(person.record.id));
    for (let turn = 0; !stopping; turn += 1) {
      const chat = theirChats[turn % theirChats.length]!;
      if (turn % 5 === 4) {
        const binary = turn % 10 === 9;
        // An .mp3 (its signature, then random bytes, NULs included) or a text file.
        const bytes = binary ? Buffer.concat([Buffer.from('ID3'), randomBytes(20_000 + turn)]) : Buffer.from(`notes ${person.username} ${turn}\n${randomBytes(600).toString('hex')}\n`);
        const stored = await upload(url, person, chat.id, binary ? `take-${turn}.mp3` : `notes-${turn}.txt`, bytes);
        files.push({ id: stored.id, chat: chat.id, file: stored.file, uploader: person.username, bytes });
      } else {
        const content = `${person.username} #${turn}: ${randomBytes(6).toString('hex')} ✓`;
        const record = await person.pb.collection('messages').create({ chat: chat.id, content, client_id: `${person.username}-${turn}` }, { requestKey: null });
        messages.push({ id: record.id, chat: chat.id, author: person.username, content });
      }
      await new Promise((resolve) => setTimeout(resolve, 10 + index * 3));
    }
  };
  const running = Promise.all(people.map((person, index) => talk(person, index)));
  const traffic = {
    messages,
    files,
    /** Why a person's loop stopped early: seen by `until` at once, and thrown again by stop(). */
    failure: undefined as unknown,
    async stop() {
      stopping = true;
      await running;
    },
  };
  running.catch((error: unknown) => {
    traffic.failure = error ?? new Error('traffic failed');
  });
  return traffic;
}

async function until(traffic: { failure: unknown }, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (traffic.failure !== undefined) throw traffic.failure;
    if (Date.now() > deadline) throw new Error('timed out waiting for traffic');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('backup while the server runs, and restore', () => {
  let live: SourceServer;
  let people: RegisteredUser[];
  let folder: string;
  let backupDir: string;
  let restoredDir: string;
  let before: { messages: SentMessage[]; files: SentFile[] };
  let during: number;
  let backupRun: { code: number | null; output: string };

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'confab-backup-test-'));
    backupDir = join(folder, 'backup');
    restoredDir = join(folder, 'restored');
    live = await startSourceServer({ name: 'sqlite', baseUrl: undefined }, { CONFAB_MESSAGES_PER_USER_PER_SECOND: '1000' });
    people = [];
    for (const name of ['Ann', 'Bob', 'Cat']) people.push(signedInOn(live, await registerOn(live, { name })));
    const [ann, bob, cat] = people as [RegisteredUser, RegisteredUser, RegisteredUser];
    const everyone = await ann.pb.collection('chats').create({ name: 'Everyone', description: '', participants: [bob.record.id, cat.record.id] });
    const pair = await bob.pb.collection('chats').create({ name: 'Bob and Cat', description: '', participants: [cat.record.id] });
    const traffic = startTraffic(live.url, people, [
      { id: everyone.id, members: people.map((person) => person.record.id) },
      { id: pair.id, members: [bob.record.id, cat.record.id] },
    ]);
    try {
      await until(traffic, () => traffic.messages.length >= 40 && traffic.files.length >= 6);
      // Acknowledged before the backup started: these must all be in it.
      before = { messages: [...traffic.messages], files: [...traffic.files] };
      backupRun = await cli(['backup', backupDir, '--data-dir', live.dataDir]);
      during = traffic.messages.length - before.messages.length;
    } finally {
      await traffic.stop();
    }
  }, 180_000);

  afterAll(async () => {
    await live?.dispose();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  it('copies everything acknowledged before it started, consistently, while people keep sending', () => {
    expect(backupRun.code, backupRun.output).toBe(0);
    expect(backupRun.output).toContain(`Backed up ${live.dataDir} to ${backupDir}`);
    // The server kept serving: messages were acknowledged while the backup ran.
    expect(during).toBeGreaterThan(0);
    expect(live.alive()).toBe(true);
    // The key material is in the backup, and never in what was printed.
    const secret = readFileSync(join(live.dataDir, 'secret'), 'utf8').trim();
    expect(readFileSync(join(backupDir, 'secret'), 'utf8').trim()).toBe(secret);
    expect(backupRun.output).not.toContain(secret);

    const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8')) as Record<string, any>;
    expect(manifest).toMatchObject({ format: 'confab-backup', version: 1, database: { kind: 'sqlite' }, files: { kind: 'data-dir' }, secret: 'data-dir' });
    expect(Date.parse(manifest['createdAt'])).not.toBeNaN();
    expect(manifest['schema']['migration']).toMatch(/^\d{3}_/);

    const db = new BetterSqlite3(join(backupDir, 'confab.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const messageIds = new Set(db.prepare('select id from messages').pluck().all() as string[]);
      const fileRows = db.prepare('select id, chat, file, size from files').all() as { id: string; chat: string; file: string; size: number }[];
      expect(manifest['counts']).toMatchObject({ messages: messageIds.size, files: fileRows.length });
      expect(manifest['files']['count']).toBe(fileRows.length);
      for (const message of before.messages) expect(messageIds.has(message.id), `message ${message.id}`).toBe(true);
      const fileIds = new Set(fileRows.map((row) => row.id));
      for (const file of before.files) expect(fileIds.has(file.id), `file ${file.id}`).toBe(true);
      // No file row without its file, byte for byte what was uploaded.
      for (const row of fileRows) {
        const path = join(backupDir, 'files', row.chat, row.id, row.file);
        expect(existsSync(path), path).toBe(true);
        expect(statSync(path).size).toBe(Number(row.size));
      }
      for (const file of before.files) expect(readFileSync(join(backupDir, 'files', file.chat, file.id, file.file)).equals(file.bytes)).toBe(true);
    } finally {
      db.close();
    }
    // Partial uploads and mails are not state to restore.
    expect(readdirSync(backupDir).sort()).toEqual(['confab.db', 'files', 'manifest.json', 'secret']);
    // It holds the secret and password hashes: private like the data dir (docs/SECURITY.md A14).
    const wider: string[] = [];
    const visit = (path: string) => {
      const stat = statSync(path);
      if ((stat.mode & 0o777) !== (stat.isDirectory() ? 0o700 : 0o600)) wider.push(`${path} ${(stat.mode & 0o777).toString(8)}`);
      if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    };
    visit(backupDir);
    expect(wider).toEqual([]);
  });

  it('restores into a fresh data dir, where the same people read every message and download every file', async () => {
    const restored = await cli(['restore', backupDir, '--data-dir', restoredDir]);
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toContain(`into ${restoredDir}`);
    expect(restored.output).toContain(`Start the server with --data-dir ${restoredDir}`);

    const server: ConfabServer = await startServer({ port: 0, host: '127.0.0.1', dataDir: restoredDir, databaseUrl: '', smtpUrl: '', inboundSmtp: 'off' });
    try {
      for (const person of people) {
        const pb = new PocketBase(server.url);
        pb.autoCancellation(false);
        await pb.collection('users').authWithPassword(person.username, person.password);
        const signedIn: RegisteredUser = { ...person, pb };
        const visible = new Map<string, string>();
        for (const chat of new Set(before.messages.map((message) => message.chat))) {
          const listed = await pb.collection('messages').getFullList({ filter: pb.filter('chat = {:chat}', { chat }), sort: 'seq' }).catch(() => []);
          for (const message of listed) visible.set(message.id, String(message['content']));
        }
        const theirs = before.messages.filter((message) => message.author === person.username);
        expect(theirs.length).toBeGreaterThan(0);
        for (const message of theirs) expect(visible.get(message.id), `message ${message.id} of ${person.username}`).toBe(message.content);
        for (const file of before.files.filter((sent) => sent.uploader === person.username)) {
          const fetched = await download(server.url, signedIn, file);
          expect(fetched.status).toBe(200);
          expect(fetched.bytes.equals(file.bytes), `file ${file.id}`).toBe(true);
        }
      }
    } finally {
      await server.close();
    }
  }, 120_000);

  it('refuses a data dir that holds a server\'s data unless --force, and one a server runs on, and says why', async () => {
    const refused = await cli(['restore', backupDir, '--data-dir', restoredDir]);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`${restoredDir} already holds a server's data (confab.db, secret, files/)`);
    expect(refused.output).toContain('--force');
    // The data dir is as it was: the restored server's own database, not replaced.
    expect(existsSync(join(restoredDir, 'confab.db'))).toBe(true);

    // Not even with --force while a server runs on it: the live server's data dir stays as it is.
    const inUse = await cli(['restore', '--force', backupDir, '--data-dir', live.dataDir]);
    expect(inUse.code).toBe(1);
    expect(inUse.output).toContain(`${join(live.dataDir, 'confab.db')} is in use, by a server running on ${live.dataDir}: stop it`);
    expect(readdirSync(live.dataDir)).not.toContain('confab.db.restoring');
    expect((await fetch(`${live.url}/api/health`)).status).toBe(200);

    // A file written since, in the data dir being replaced: --force replaces the whole state.
    const stray = join(restoredDir, 'files', 'zzzzzzzzzzzzzz1', 'zzzzzzzzzzzzzz2', 'stray_abcdefghij.txt');
    mkdirSync(join(stray, '..'), { recursive: true });
    writeFileSync(stray, 'not in the backup');
    const forced = await cli(['restore', '--force', backupDir, '--data-dir', restoredDir]);
    expect(forced.code, forced.output).toBe(0);
    expect(existsSync(stray)).toBe(false);
    const db = new BetterSqlite3(join(restoredDir, 'confab.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  }, 120_000);

  it('answers a missing folder, a folder that is no backup and a damaged one with what is wrong', async () => {
    const target = join(folder, 'elsewhere');
    const notBackup = mkdtempSync(join(folder, 'not-a-backup-'));
    writeFileSync(join(notBackup, 'notes.txt'), 'hello');
    // A snapshot changed after the backup fails its checksum.
    const damaged = join(folder, 'damaged');
    mkdirSync(damaged);
    for (const name of ['manifest.json', 'secret', 'confab.db']) writeFileSync(join(damaged, name), readFileSync(join(backupDir, name)));
    const bytes = readFileSync(join(damaged, 'confab.db'));
    bytes[bytes.length - 1] = (bytes[bytes.length - 1]! + 1) % 256;
    writeFileSync(join(damaged, 'confab.db'), bytes);

    const [missing, wrong, noFolder, broken, occupied] = await Promise.all([
      cli(['restore', join(folder, 'no-such-backup'), '--data-dir', target]),
      cli(['restore', notBackup, '--data-dir', target]),
      cli(['restore', '--data-dir', target]),
      cli(['restore', damaged, '--data-dir', target]),
      // A backup goes into a new or empty folder only.
      cli(['backup', notBackup, '--data-dir', live.dataDir]),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain(`there is no backup at ${join(folder, 'no-such-backup')}`);
    expect(wrong.code).toBe(1);
    expect(wrong.output).toContain('holds no manifest.json: it is not a confab-server backup');
    expect(noFolder.code).toBe(1);
    expect(noFolder.output).toContain('restore needs a folder');
    expect(broken.code).toBe(1);
    expect(broken.output).toContain('does not match the checksum in the manifest');
    // Nothing was put in the data dir.
    expect(readdirSync(target)).toEqual([]);
    expect(occupied.code).toBe(1);
    expect(occupied.output).toContain(`${notBackup} is not empty`);
    expect(readdirSync(notBackup)).toEqual(['notes.txt']);
  }, 120_000);

  it('restores a backup of an older schema, which the server migrates as it starts', async () => {
    // The backup as an older Confab made it: its database three migrations behind this one's.
    const older = join(folder, 'older-backup');
    cpSync(backupDir, older, { recursive: true });
    const connection = new BetterSqlite3(join(older, 'confab.db'));
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: connection }) });
    await migrateTo(db, '015_message_replies');
    await db.destroy();
    const manifest = JSON.parse(readFileSync(join(older, 'manifest.json'), 'utf8')) as Record<string, any>;
    const databaseBytes = readFileSync(join(older, 'confab.db'));
    manifest['schema'] = { migration: '015_message_replies', migrations: 15 };
    manifest['database'] = { ...manifest['database'], bytes: databaseBytes.length, sha256: createHash('sha256').update(databaseBytes).digest('hex') };
    writeFileSync(join(older, 'manifest.json'), JSON.stringify(manifest));

    const target = join(folder, 'restored-older');
    const restored = await cli(['restore', older, '--data-dir', target]);
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toMatch(/it migrates the database from 015_message_replies to \d{3}_\w+ as it starts/);
    const server = await startServer({ port: 0, host: '127.0.0.1', dataDir: target, databaseUrl: '', smtpUrl: '', inboundSmtp: 'off' });
    try {
      const [ann] = people as [RegisteredUser];
      const pb = new PocketBase(server.url);
      await pb.collection('users').authWithPassword(ann.username, ann.password);
      const theirs = before.messages.filter((message) => message.author === ann.username);
      const listed = await pb.collection('messages').getFullList({ filter: pb.filter('chat = {:chat}', { chat: theirs[0]!.chat }), sort: 'seq' });
      const contents = new Map(listed.map((message) => [message.id, String(message['content'])]));
      for (const message of theirs.filter((sent) => sent.chat === theirs[0]!.chat)) expect(contents.get(message.id)).toBe(message.content);
      const file = before.files.find((sent) => sent.uploader === ann.username) ?? before.files[0]!;
      const uploader = people.find((person) => person.username === file.uploader)!;
      await pb.collection('users').authWithPassword(uploader.username, uploader.password);
      expect((await download(server.url, { ...uploader, pb }, file)).bytes.equals(file.bytes)).toBe(true);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('leaves out a file deleted while it ran, as the deletion does, and refuses a secret that cannot read the messages', async () => {
    // A deletion caught half-way: the server removes the bytes, then the row.
    const file = before.files[0]!;
    rmSync(join(live.dataDir, 'files', file.chat, file.id), { recursive: true, force: true });
    const target = join(folder, 'with-a-deletion');
    const lines: string[] = [];
    const manifest = await backupDataDir({ dataDir: live.dataDir, target, databaseUrl: undefined, filesS3Bucket: undefined, environmentSecret: undefined, say: (line) => lines.push(line) });
    expect(manifest.filesDeletedDuringBackup).toBe(1);
    expect(lines.join('\n')).toContain('1 file(s) named by the snapshot were gone');
    const db = new BetterSqlite3(join(target, 'confab.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.prepare('select count(*) from files where id = ?').pluck().get(file.id)).toBe(0);
      const cards = db.prepare('select details from messages where file = ?').pluck().all(file.id) as string[];
      expect(cards.length).toBeGreaterThan(0);
      for (const details of cards) expect(JSON.parse(details)).toMatchObject({ deleted: true });
    } finally {
      db.close();
    }

    const wrongSecret = join(folder, 'wrong-secret');
    await expect(
      backupDataDir({ dataDir: live.dataDir, target: wrongSecret, databaseUrl: undefined, filesS3Bucket: undefined, environmentSecret: 'not-the-servers-secret', say: () => undefined }),
    ).rejects.toThrow('CONFAB_SECRET as given here does not decrypt the stored messages');
    expect(existsSync(wrongSecret)).toBe(false);
  }, 120_000);
});

describe('backup on PostgreSQL, and with files in a bucket', () => {
  let folder: string;
  let dataDir: string;
  const key = 'aaaaaaaaaaaaaa1/bbbbbbbbbbbbbb1/notes_abcdefghij.txt';
  // Nothing listens on port 1: the database cannot be counted, and the backup still says what to do.
  const databaseUrl = 'postgres://confab:pw-never-printed@127.0.0.1:1/confab?schema=tenant_one&sslmode=disable';

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'confab-backup-pg-'));
    dataDir = join(folder, 'data');
    mkdirSync(join(dataDir, 'files', key, '..'), { recursive: true });
    writeFileSync(join(dataDir, 'files', key), 'notes\n');
    writeFileSync(join(dataDir, 'secret'), 'a-secret-of-the-test-server\n');
  });

  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('prints the pg_dump to run (without the password) and copies the files and the secret', async () => {
    const target = join(folder, 'pg-backup');
    const run = await cli(['backup', target, '--data-dir', dataDir], { DATABASE_URL: databaseUrl });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('The database is PostgreSQL: back it up with pg_dump');
    expect(run.output).toContain(`pg_dump --format=custom --schema=tenant_one --file=${join(target, 'confab.pgdump')} --dbname='postgres://confab@127.0.0.1:1/confab?sslmode=disable'`);
    expect(run.output).not.toContain('pw-never-printed');
    expect(run.output).not.toContain('a-secret-of-the-test-server');
    expect(readFileSync(join(target, 'files', key), 'utf8')).toBe('notes\n');
    expect(readFileSync(join(target, 'secret'), 'utf8')).toBe('a-secret-of-the-test-server\n');
    const manifest = JSON.parse(readFileSync(join(target, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ database: { kind: 'postgresql', dump: null }, counts: null, files: { kind: 'data-dir', count: 1 }, secret: 'data-dir' });
  }, 120_000);

  it('names the bucket and leaves its files to the storage\'s versioning or replication', async () => {
    const target = join(folder, 'bucket-backup');
    const run = await cli(['backup', target, '--data-dir', dataDir], { DATABASE_URL: databaseUrl, CONFAB_FILES_S3_BUCKET: 'team-files/confab/' });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('Files are in the bucket s3://team-files/confab/');
    expect(run.output).toContain('versioning or replication');
    expect(existsSync(join(target, 'files'))).toBe(false);
    const manifest = JSON.parse(readFileSync(join(target, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ files: { kind: 'bucket', bucket: 'team-files', prefix: 'confab/' } });
  }, 120_000);
});

describe.runIf(postgres !== undefined && postgresTools)('backup and restore on PostgreSQL, following what they print', () => {
  let folder: string;
  let schema: string;
  let databaseUrl: string;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'confab-backup-pg-live-'));
    schema = `test_backup_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    databaseUrl = `${postgres!.baseUrl}?schema=${schema}`;
  });

  afterAll(async () => {
    const pgModule = await import('pg');
    const client = new pgModule.default.Client({ connectionString: postgres!.baseUrl });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
    rmSync(folder, { recursive: true, force: true });
  });

  it('pg_dump first, then backup; after the schema is lost, pg_restore and restore bring every message and file back', async () => {
    const dataDir = join(folder, 'data');
    const options = { port: 0, host: '127.0.0.1', databaseUrl, smtpUrl: '', inboundSmtp: 'off', signupsPerIpPerHour: 10_000 };
    const server = await startServer({ ...options, dataDir });
    const ann = signedInOn(server, await registerOn(server, { name: 'Ann' }));
    const chat = await ann.pb.collection('chats').create({ name: 'Kept', description: '', participants: [] });
    const sent: SentMessage[] = [];
    for (let index = 0; index < 5; index += 1) {
      const content = `kept ${index} ${randomBytes(4).toString('hex')}`;
      const record = await ann.pb.collection('messages').create({ chat: chat.id, content, client_id: `kept-${index}` });
      sent.push({ id: record.id, chat: chat.id, author: ann.username, content });
    }
    const bytes = Buffer.concat([Buffer.from('ID3'), randomBytes(5000)]);
    const stored = await upload(server.url, ann, chat.id, 'kept.mp3', bytes);
    const environment = { DATABASE_URL: databaseUrl, PGCONNECT_TIMEOUT: '5' };

    // The first run says which pg_dump to run; run it into the folder, then back up for real.
    const backupDir = join(folder, 'backup');
    const guidance = await cli(['backup', join(folder, 'guidance'), '--data-dir', dataDir], environment);
    expect(guidance.code, guidance.output).toBe(0);
    const dump = printedCommand(guidance.output, 'pg_dump').replace(join(folder, 'guidance'), backupDir);
    mkdirSync(backupDir);
    const dumped = spawnSync('sh', ['-c', dump], { encoding: 'utf8' });
    expect(dumped.status, dumped.stderr).toBe(0);
    const backedUp = await cli(['backup', backupDir, '--data-dir', dataDir], environment);
    expect(backedUp.code, backedUp.output).toBe(0);
    expect(backedUp.output).toContain('(your pg_dump) is kept in the backup');
    const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8')) as Record<string, any>;
    expect(manifest).toMatchObject({ database: { kind: 'postgresql', dump: 'confab.pgdump' }, counts: { files: 1 }, files: { kind: 'data-dir', count: 1 }, secret: 'data-dir' });
    expect(manifest['counts']['messages']).toBeGreaterThanOrEqual(sent.length);
    await server.close();

    // The database and the data dir are lost.
    const pgModule = await import('pg');
    const client = new pgModule.default.Client({ connectionString: postgres!.baseUrl });
    await client.connect();
    await client.query(`drop schema ${schema} cascade`);
    await client.end();
    rmSync(dataDir, { recursive: true, force: true });

    const restoredDir = join(folder, 'restored');
    const restored = await cli(['restore', backupDir, '--data-dir', restoredDir], environment);
    expect(restored.code, restored.output).toBe(0);
    const pgRestore = spawnSync('sh', ['-c', printedCommand(restored.output, 'pg_restore')], { encoding: 'utf8' });
    expect(pgRestore.status, pgRestore.stderr).toBe(0);

    const again = await startServer({ ...options, dataDir: restoredDir });
    try {
      const pb = new PocketBase(again.url);
      await pb.collection('users').authWithPassword(ann.username, ann.password);
      const listed = await pb.collection('messages').getFullList({ filter: pb.filter('chat = {:chat}', { chat: chat.id }), sort: 'seq' });
      const contents = new Map(listed.map((message) => [message.id, String(message['content'])]));
      for (const message of sent) expect(contents.get(message.id)).toBe(message.content);
      expect((await download(again.url, { ...ann, pb }, stored)).bytes.equals(bytes)).toBe(true);
    } finally {
      await again.close();
    }
  }, 120_000);
});
