#!/usr/bin/env node
// `pnpm start`: build what the product needs, then run confab-server on the embedded defaults,
// serving the built reference app and the API on one URL (default http://localhost:8090).
// Extra arguments are passed to confab-server, e.g. `pnpm start --port 9000`.
import { spawnSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pnpm = process.env.npm_execpath && process.env.npm_execpath.includes('pnpm') ? process.env.npm_execpath : 'pnpm';

function run(args) {
  const isScript = pnpm.endsWith('.js') || pnpm.endsWith('.cjs') || pnpm.endsWith('.mjs');
  const result = isScript
    ? spawnSync(process.execPath, [pnpm, ...args], { cwd: root, stdio: 'inherit' })
    : spawnSync(pnpm, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The server's dist imports @confab/client/rules at run time, so the client is built first (pnpm sorts by dependency).
run(['--filter', '@confab/client', '--filter', '@confab/server', '--filter', '@confab/reference', 'run', 'build']);

const server = spawn(
  process.execPath,
  ['packages/server/dist/bin.js', '--web-dir', 'apps/reference/dist', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
