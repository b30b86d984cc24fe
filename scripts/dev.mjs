#!/usr/bin/env node
// `pnpm dev`: the server from source (tsx watch) on :8090 and the reference app with Vite's dev
// server on :5173, which proxies /api (HTTP and WebSocket) to the server.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const children = [
  spawn(process.execPath, ['--conditions=@confab/source', 'node_modules/tsx/dist/cli.mjs', 'watch', 'packages/server/src/bin.ts', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' }),
  spawn(process.execPath, [`${root}node_modules/vite/bin/vite.js`], { cwd: `${root}apps/reference`, stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => { stop(); process.exitCode = code ?? 0; });
