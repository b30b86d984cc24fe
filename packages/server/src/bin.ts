#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { logFormatFor, optionsFromEnvironment, parseFlags, resolveConfig, type ServerOptions } from './config';
import type { ConfabServer } from './server';
import { parseBucket } from './services/files/fileStore';

const usage = `Usage:
  confab-server [--port 8090] [--host 0.0.0.0] [--data-dir ./data]
                [--web-dir <dir> | --no-web] [--log-level info] [--log-format json|pretty]
  confab-server admin add <username>   make an existing user a server admin
  confab-server files migrate --to s3  copy the data dir's files into CONFAB_FILES_S3_BUCKET
                                       (skips files already there: run it again to resume)
  confab-server backup <dir>           copy the data dir's state into the new or empty folder <dir>
                                       while the server runs: a SQLite snapshot, the files, the
                                       secret and manifest.json (on PostgreSQL: prints the pg_dump
                                       to run first; files in a bucket are left to the bucket)
  confab-server restore <dir> [--force]
                                       put a backup into --data-dir (checked first); refuses a data
                                       dir that holds a database, secret or files unless --force
                                       (stop its server first). See docs/OPERATIONS.md.

  --web-dir <dir>    serve this built web app at / (default: the reference app in this package)
  --no-web           serve the API only
  --log-level <l>    trace, debug, info (one line per request), warn, error, fatal or silent
  --log-format <f>   json (default when stdout is not a terminal) or pretty (default on a terminal)

Environment: PORT, CONFAB_DATA_DIR, DATABASE_URL, REDIS_URL, SMTP_URL, CONFAB_MAIL_DOMAIN,
CONFAB_SECRET, CONFAB_PUBLIC_URL, CONFAB_WEB_DIR, CONFAB_LOG_LEVEL, CONFAB_LOG_FORMAT,
CONFAB_FILES_S3_BUCKET with the AWS SDK's AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
AWS_ENDPOINT_URL_S3 (and the others in README.md). SIGTERM or Ctrl-C drains requests in flight (at most 10 s) and exits 0;
CONFAB_DRAIN_DELAY_SECONDS first keeps serving while /api/ready answers 503. /api/ready, /metrics: docs/OPERATIONS.md.`;

/** The reference app the published package carries (scripts/bundle-web.mjs), next to dist/. */
const bundledWebDir = fileURLToPath(new URL('../web', import.meta.url));
/** A shutdown that outlives the drain (10 s) and the release of the stores is given up. */
const shutdownTimeoutMs = 20_000;

async function addAdmin(argv: string[]): Promise<void> {
  const username = argv.find((argument) => !argument.startsWith('--'));
  if (username === undefined) throw new Error('admin add needs a username');
  const config = resolveConfig(optionsFromEnvironment(argv.slice(1)));
  const { openDatabase } = await import('./store/database');
  const { UsersRepository } = await import('./store/repositories/users');
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const users = new UsersRepository(database.db);
    const user = await users.findByUsername(username);
    if (user === undefined) throw new Error(`no user named ${username}`);
    await users.update(user.id, { is_admin: 1 });
    console.log(`${user.username} is now an admin`);
  } finally {
    await database.close();
  }
}

/**
 * `files migrate --to s3`: copies `<data dir>/files` into the configured bucket, printing counts
 * as it goes. The SDK reads its own configuration (region, credentials, endpoint) from the
 * environment; none of it is printed.
 */
async function migrateFiles(argv: string[]): Promise<void> {
  const flags = parseFlags(argv);
  if (flags['to'] !== 's3') throw new Error('files migrate needs --to s3');
  const options = optionsFromEnvironment(argv);
  const bucketSetting = options.filesS3Bucket?.trim() ?? '';
  if (bucketSetting === '') throw new Error('set CONFAB_FILES_S3_BUCKET to the bucket (and optional prefix) to copy the files into');
  const dataDir = resolve(options.dataDir ?? './data');
  const { migrateFilesToBucket } = await import('./services/files/migrateFiles');
  const { createS3Client, S3FileStore } = await import('./services/files/s3FileStore');
  const { bucket, prefix } = parseBucket(bucketSetting);
  const store = new S3FileStore({ client: createS3Client(), bucket, prefix, onError: (problem) => console.error(`confab-server: ${problem}`) });
  console.log(`Copying the files of ${dataDir} to s3://${bucket}/${prefix}`);
  try {
    const counts = await migrateFilesToBucket(dataDir, store, (progress) => {
      if (progress.found % 100 === 0) console.log(`${progress.found} files: ${progress.copied} copied, ${progress.skipped} already there`);
    });
    console.log(`Done: ${counts.found} files, ${counts.copied} copied, ${counts.skipped} already there`);
  } finally {
    store.close();
  }
}

/** `<dir>` of `backup <dir>` / `restore <dir>`: the first argument that is neither a flag nor a flag's value. */
function folderArgument(argv: readonly string[], command: string): string {
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    if (!argument.startsWith('--')) return argument;
    // `--name value` (parseFlags' reading): skip the value.
    if (!argument.includes('=') && argv[index + 1] !== undefined && !argv[index + 1]!.startsWith('--')) index += 1;
  }
  throw new Error(`${command} needs a folder: confab-server ${command} <dir>`);
}

/** `backup <dir>`: see backup/backup.ts. Reads the server's configuration as its other commands do; prints no secret. */
async function backup(argv: string[]): Promise<void> {
  const target = folderArgument(argv, 'backup');
  const options = optionsFromEnvironment(argv);
  const { backupDataDir } = await import('./backup/backup');
  await backupDataDir({
    dataDir: options.dataDir ?? './data',
    target,
    databaseUrl: options.databaseUrl?.trim() || undefined,
    filesS3Bucket: options.filesS3Bucket,
    environmentSecret: options.secret,
    say: (line) => console.log(line),
  });
}

/** `restore <dir> [--force]`: see backup/restore.ts. */
async function restore(argv: string[]): Promise<void> {
  // --force takes no value: dropped before the flags are read, so `--force <dir>` keeps its folder.
  const rest = argv.filter((argument) => argument !== '--force');
  const backupDir = folderArgument(rest, 'restore');
  const options = optionsFromEnvironment(rest);
  const { restoreBackup } = await import('./backup/restore');
  await restoreBackup({
    backupDir,
    dataDir: options.dataDir ?? './data',
    force: rest.length !== argv.length,
    databaseUrl: options.databaseUrl?.trim() || undefined,
    filesS3Bucket: options.filesS3Bucket,
    environmentSecret: options.secret,
    say: (line) => console.log(line),
  });
}

/**
 * The web app to serve: --no-web serves none (whatever CONFAB_WEB_DIR says), --web-dir or
 * CONFAB_WEB_DIR name one, else the bundled reference app if this package carries it.
 */
function webDirOption(argv: readonly string[], environmentWebDir: string | undefined): string {
  const flags = parseFlags(argv);
  if (flags['no-web'] !== undefined && flags['no-web'] !== 'false') return '';
  const chosen = flags['web-dir'] ?? environmentWebDir;
  if (chosen !== undefined && chosen.trim() !== '') return chosen;
  return existsSync(join(bundledWebDir, 'index.html')) ? bundledWebDir : '';
}

/** The start-up line: plain on a terminal, a JSON log line otherwise, whatever the log level. */
function banner(url: string, json: boolean, webDir: string): string {
  const message = `Confab is running at ${url}`;
  if (!json) return `${message} (${webDir === '' ? 'the API only, no web app' : `web app from ${webDir}`})`;
  return JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, url, web: webDir === '' ? null : webDir, msg: message });
}

async function serve(argv: string[]): Promise<void> {
  const webDir = webDirOption(argv, process.env['CONFAB_WEB_DIR']);
  const options: ServerOptions = { ...optionsFromEnvironment(argv), webDir, logger: true };
  const json = logFormatFor(options.logFormat, process.stdout) === 'json';
  let server: ConfabServer | undefined;
  let stopping = false;
  const stop = (running: ConfabServer) => {
    // The drain delay (CONFAB_DRAIN_DELAY_SECONDS) comes before the drain, so the bound grows by it.
    const delayMs = options.drainDelayMs;
    const boundMs = shutdownTimeoutMs + (delayMs !== undefined && Number.isFinite(delayMs) && delayMs > 0 ? delayMs : 0);
    setTimeout(() => {
      console.error(`confab-server: shutdown took over ${boundMs / 1000} s; exiting`);
      process.exit(1);
    }, boundMs).unref();
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`confab-server: shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  // Installed before start-up, so a signal during it stops the server once it is up. Ctrl-C
  // under `pnpm start` arrives twice (from the terminal and forwarded): one drain.
  const onSignal = () => {
    if (stopping) return;
    stopping = true;
    if (server !== undefined) stop(server);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Loaded here, not at the top: the other commands (backup, restore…) start without the whole server.
  const { startServer } = await import('./server');
  server = await startServer(options);
  console.log(banner(server.url, json, webDir));
  if (stopping) stop(server);
}

async function main(argv: string[]): Promise<void> {
  // This process is the server's own: whatever it creates (SQLite's, DuckDB's, a library's files)
  // is private to its account by default. startServer sets its modes explicitly besides, for
  // embedders, whose umask it leaves alone (docs/SECURITY.md A14).
  process.umask(0o077);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage);
    return;
  }
  if (argv[0] === 'admin') {
    if (argv[1] !== 'add') throw new Error(`unknown admin command; ${usage}`);
    await addAdmin(argv.slice(2));
    return;
  }
  if (argv[0] === 'files') {
    if (argv[1] !== 'migrate') throw new Error(`unknown files command; ${usage}`);
    await migrateFiles(argv.slice(2));
    return;
  }
  if (argv[0] === 'backup') {
    await backup(argv.slice(1));
    return;
  }
  if (argv[0] === 'restore') {
    await restore(argv.slice(1));
    return;
  }
  await serve(argv);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`confab-server: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
