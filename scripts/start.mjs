#!/usr/bin/env node
// `pnpm start`: build what the product needs, bundle the reference app into the server package (as
// `pnpm pack` does), then run confab-server on the embedded defaults: the app and the API on one URL
// (default http://localhost:8090). Quiet by default: the start-up line, warnings and errors
// (`--log-level info` or CONFAB_LOG_LEVEL=info adds a line per request). Extra arguments are passed
// to confab-server, e.g. `pnpm start --port 9000`. Ctrl-C or SIGTERM drains the server and exits 0.
// package.json runs this with `exec`, so pnpm's child is this process and not a shell: a shell would
// die of the signal first, and pnpm would report 'Command failed' (and leave us running on SIGTERM).
import { spawnSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startBuildPackages } from './startBuild.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pnpm = process.env.npm_execpath && process.env.npm_execpath.includes('pnpm') ? process.env.npm_execpath : 'pnpm';

function run(args) {
  const isScript = pnpm.endsWith('.js') || pnpm.endsWith('.cjs') || pnpm.endsWith('.mjs');
  const result = isScript
    ? spawnSync(process.execPath, [pnpm, ...args], { cwd: root, stdio: 'inherit' })
    : spawnSync(pnpm, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// CONFAB_START_SKIP_BUILD=1 runs what was built last (a quicker restart; the tests).
if (!process.env.CONFAB_START_SKIP_BUILD) {
  run([...startBuildPackages.flatMap((name) => ['--filter', name]), 'run', 'build']);
  // The reference app's build into packages/server/web, precompressed: what `npx @confab/server` serves.
  run(['--filter', '@confab/server', 'run', 'bundle-web']);
}

const argv = process.argv.slice(2);
const quiet = argv.some((argument) => argument === '--log-level' || argument.startsWith('--log-level=')) || process.env.CONFAB_LOG_LEVEL ? [] : ['--log-level', 'warn'];
const server = spawn(process.execPath, ['packages/server/bin/confab-server.js', ...quiet, ...argv], { cwd: root, stdio: 'inherit' });

// Ctrl-C reaches the server from the terminal too; it drains once either way.
let forwarded;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    forwarded = signal;
    server.kill(signal);
  });
}
// A server stopped by the signal this script passed on ended as asked: exit 0, not 'Command failed'.
server.on('exit', (code, signal) => process.exit(code ?? (signal !== null && signal === forwarded ? 0 : 1)));
