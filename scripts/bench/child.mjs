// Starts a server child (one of servers/*.mjs) and wraps its IPC protocol.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * @param {'bare' | 'bareUpload' | 'bareInsert' | 'confab'} kind
 * @param {Record<string, string>} env extra environment
 * @param {{ discardStdout?: boolean, execArgv?: string[] }} [spawnOptions] discardStdout: log lines
 *   are written (and so cost what they cost) but not shown; execArgv: extra Node flags (--cpu-prof)
 * @returns {Promise<{ url: string, pid: number, memory: () => Promise<Memory>, cpu: () => Promise<number>, stop: () => Promise<void> }>}
 * @typedef {{ rss: number, heapUsed: number, external: number, arrayBuffers: number }} Memory
 */
export async function startServerChild(kind, env = {}, spawnOptions = {}) {
  const execArgv = ['--expose-gc', ...(spawnOptions.execArgv ?? [])];
  if (kind === 'confab') execArgv.push('--conditions=@confab/source', '--import', 'tsx');
  // BENCH_CPU_PROFILE_DIR=/tmp/profiles: the server writes a .cpuprofile there when it stops.
  if (process.env.BENCH_CPU_PROFILE_DIR) execArgv.push('--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE_DIR}`);
  const child = fork(fileURLToPath(new URL(`./servers/${kind}.mjs`, import.meta.url)), [], {
    cwd: root,
    execArgv,
    env: { ...process.env, ...env, NODE_ENV: 'production' },
    stdio: ['ignore', spawnOptions.discardStdout ? 'ignore' : 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let nextId = 0;
  const pending = new Map();
  const url = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${kind} server exited early (code ${code})`)));
    child.on('message', (message) => {
      if (message?.type === 'ready') resolve(message.url);
      else if (message?.type === 'memory') pending.get(message.id)?.(message.memory);
      else if (message?.type === 'cpu') pending.get(message.id)?.(message.microseconds);
    });
  });
  const request = (type) => {
    const id = (nextId += 1);
    return new Promise((resolve) => {
      pending.set(id, (value) => (pending.delete(id), resolve(value)));
      child.send({ type, id });
    });
  };
  return {
    url,
    pid: child.pid ?? 0,
    memory: () => request('memory'),
    /** The child's CPU time so far (user + system), in microseconds. */
    cpu: () => request('cpu'),
    async stop() {
      if (child.exitCode !== null) return;
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.send({ type: 'stop' });
      await exited;
      clearTimeout(killer);
    },
  };
}
