// A newcomer's terminal, for running the My Agents quickstart exactly as the page shows it
// (apps/reference/e2e/quickstart.test.ts and scripts/bench/agentQuickstart.mjs): a fresh HOME in a
// temp dir, an environment holding only what a new shell has (HOME, PATH with Node.js and npm, a
// locale), npm's cache in that HOME and its global prefix in ~/.npm-global (`npm config set prefix`
// and PATH, as My Agents' hint for EACCES says, so `npm install -g` never writes to /usr), and
// nothing of the pnpm or the workspace that runs the tests. The machine's network settings (a
// proxy, extra CA certificates) pass through, as they reach any new shell on it. Each command is
// one `bash -c`, in the folder the previous one ended in (so `cd` carries over, as in one terminal).
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

/** Where Node.js and npm are: this Node's folder, then the system's. */
function systemPath() {
  return [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter);
}

/** Proxy and certificate variables: the machine's, not the workspace's. */
const networkVariables = /^(?:https?_proxy|no_proxy|all_proxy|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR)$/i;

/**
 * @param {{ env?: Record<string, string> }} [options] variables the newcomer sets (CONFAB_PASSWORD)
 */
export async function newcomerShell(options = {}) {
  const home = await mkdtemp(join(tmpdir(), 'confab-newcomer-'));
  const prefix = join(home, '.npm-global');
  await mkdir(join(prefix, 'bin'), { recursive: true });
  const stateFile = join(home, '.last-cwd');
  const env = {
    HOME: home,
    PATH: [join(prefix, 'bin'), systemPath()].join(delimiter),
    LANG: 'C.UTF-8',
    TMPDIR: tmpdir(),
    ...Object.fromEntries(Object.entries(process.env).filter(([name, value]) => networkVariables.test(name) && value !== undefined)),
    ...options.env,
  };
  let cwd = home;
  const running = new Set();
  // The user's own global folder, set up the way My Agents' hint for EACCES says.
  const configured = spawnSync('bash', ['-c', 'npm config set prefix ~/.npm-global'], { cwd, env, encoding: 'utf8', timeout: 30_000 });
  if (configured.status !== 0) throw new Error(`npm config set prefix failed: ${configured.stdout}${configured.stderr}`);

  /** Spawns `command` in its own process group; its output is collected as it comes. */
  function launch(command) {
    // After the command: remember where it ended, and exit with its status.
    const script = `${command}\n__status=$?; pwd > ${JSON.stringify(stateFile)}; exit $__status`;
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => child.once('close', (code, signal) => resolve(code ?? signal)));
    const handle = {
      child,
      exited,
      output: () => output,
      /** SIGINT to the whole group (what Ctrl+C does), then SIGKILL after 5 s; resolves with the exit status. */
      async stop() {
        if (child.exitCode === null && child.signalCode === null) {
          try {
            process.kill(-child.pid, 'SIGINT');
          } catch {
            // Already gone.
          }
          const killer = setTimeout(() => {
            try {
              process.kill(-child.pid, 'SIGKILL');
            } catch {
              // Already gone.
            }
          }, 5_000);
          await exited;
          clearTimeout(killer);
        }
        running.delete(handle);
        return exited;
      },
    };
    running.add(handle);
    return handle;
  }

  return {
    home,
    env,
    cwd: () => cwd,
    /**
     * Runs one command to its end (killed past `timeoutMs`); rejects, with its output, unless it
     * exits 0. Resolves with its output (stdout and stderr as they interleaved) and its time.
     */
    async run(command, { timeoutMs = 120_000 } = {}) {
      const started = performance.now();
      const handle = launch(command);
      const timer = setTimeout(() => void handle.stop(), timeoutMs);
      const status = await handle.exited;
      clearTimeout(timer);
      running.delete(handle);
      const ms = performance.now() - started;
      if (status !== 0) throw new Error(`\`${command}\` ended with ${status} after ${Math.round(ms)} ms:\n${handle.output()}`);
      cwd = (await readFile(stateFile, 'utf8')).trim();
      return { output: handle.output(), ms };
    },
    /**
     * Starts a command that runs until stopped (`confab run`); `until` resolves once its output
     * contains `text`, and rejects if it exits first or `timeoutMs` passes.
     */
    start(command) {
      const handle = launch(command);
      return {
        output: handle.output,
        stop: handle.stop,
        until(text, timeoutMs = 30_000) {
          return new Promise((resolve, reject) => {
            const check = () => {
              if (!handle.output().includes(text)) return false;
              clearInterval(poll);
              clearTimeout(timer);
              resolve(handle.output());
              return true;
            };
            const poll = setInterval(check, 50);
            const timer = setTimeout(() => {
              clearInterval(poll);
              reject(new Error(`\`${command}\` did not print "${text}" within ${timeoutMs} ms:\n${handle.output()}`));
            }, timeoutMs);
            void handle.exited.then((status) => {
              if (check()) return;
              clearInterval(poll);
              clearTimeout(timer);
              reject(new Error(`\`${command}\` exited (${status}) before printing "${text}":\n${handle.output()}`));
            });
          });
        },
      };
    },
    /** Stops whatever still runs and removes the HOME with everything in it. */
    async dispose() {
      for (const handle of [...running]) await handle.stop();
      await rm(home, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
