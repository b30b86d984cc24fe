// The `pnpm bench:drops` side of the wire: the server child (dropsServer.mjs) with its IPC, and
// HTTP over keep-alive connections (node:http Agent), as a browser or an app would hold them.
import { fork } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Starts dropsServer.mjs on `dataDir`; resolves once it listens.
 * @returns {Promise<{ url: string, refresh: () => Promise<RefreshFigures>, stop: () => Promise<void> }>}
 * @typedef {{ durationMs: number, longestStallMs: number }} RefreshFigures
 */
export async function startDropsServer(dataDir) {
  const child = fork(fileURLToPath(new URL('./dropsServer.mjs', import.meta.url)), [], {
    cwd: root,
    execArgv: ['--conditions=@confab/source', '--import', 'tsx'],
    env: { ...process.env, BENCH_DATA_DIR: dataDir, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const pending = new Map();
  let nextId = 0;
  const url = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`drops server exited early (code ${code})`)));
    child.on('message', (message) => {
      if (message?.type === 'ready') resolve(message.url);
      else if (message?.type === 'refresh') pending.get(message.id)?.(message);
    });
  });
  return {
    url,
    refresh() {
      const id = (nextId += 1);
      return new Promise((resolve, reject) => {
        pending.set(id, (answer) => (pending.delete(id), answer.error ? reject(new Error(answer.error)) : resolve(answer)));
        child.send({ type: 'refresh', id });
      });
    },
    async stop() {
      if (child.exitCode !== null) return;
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.send({ type: 'stop' });
      await exited;
      clearTimeout(killer);
    },
  };
}

/** A keep-alive HTTP client for one server: `call(method, path, token?, body?)` → { status, body, ms }. */
export function httpClient(baseUrl, maxSockets = 16) {
  const agent = new Agent({ keepAlive: true, maxSockets });
  const { hostname, port } = new URL(baseUrl);
  const call = (method, path, token, body) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const headers = { ...(token ? { authorization: token } : {}), ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}) };
      const started = performance.now();
      const outgoing = httpRequest({ agent, hostname, port, method, path, headers }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed;
          try {
            parsed = text === '' ? undefined : JSON.parse(text);
          } catch {
            parsed = text;
          }
          resolve({ status: response.statusCode ?? 0, body: parsed, ms: performance.now() - started });
        });
        response.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
  /** Answers the body of a 2xx, throws with the status and body otherwise. */
  const ok = async (method, path, token, body) => {
    const answer = await call(method, path, token, body);
    if (answer.status < 200 || answer.status > 299) throw new Error(`${method} ${path} → ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  return {
    call,
    ok,
    /** Password sign-in, as the app does it; answers the token. */
    signIn: async (identity, password) => (await ok('POST', '/api/collections/users/auth-with-password', undefined, { identity, password })).token,
    close: () => agent.destroy(),
  };
}
