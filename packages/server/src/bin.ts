#!/usr/bin/env node
import { optionsFromEnvironment, resolveConfig } from './config';
import { startServer } from './server';
import { openDatabase } from './store/database';
import { UsersRepository } from './store/repositories/users';

const usage = `Usage:
  confab-server [--port 8090] [--host 0.0.0.0] [--data-dir ./data] [--web-dir ./dist]
  confab-server admin add <username>   make an existing user a server admin

Environment: PORT, CONFAB_DATA_DIR, DATABASE_URL, REDIS_URL, SMTP_URL, CONFAB_MAIL_DOMAIN,
CONFAB_SECRET, CONFAB_PUBLIC_URL, CONFAB_WEB_DIR`;

async function addAdmin(argv: string[]): Promise<void> {
  const username = argv.find((argument) => !argument.startsWith('--'));
  if (username === undefined) throw new Error('admin add needs a username');
  const config = resolveConfig(optionsFromEnvironment(argv.slice(1)));
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

async function serve(argv: string[]): Promise<void> {
  const options = optionsFromEnvironment(argv);
  const server = await startServer({ ...options, logger: true });
  console.log(`Confab is running at ${server.url}`);
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

async function main(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage);
    return;
  }
  if (argv[0] === 'admin') {
    if (argv[1] !== 'add') throw new Error(`unknown admin command; ${usage}`);
    await addAdmin(argv.slice(2));
    return;
  }
  await serve(argv);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`confab-server: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
