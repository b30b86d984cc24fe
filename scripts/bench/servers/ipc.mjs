// The parent talks to a server child over IPC: the child announces its URL, answers memory
// requests after forcing GC (run with --expose-gc, so idle garbage does not count as cost) and
// CPU-time requests (CPU per delivery does not depend on how busy the machine is), and closes
// cleanly on 'stop'. If the parent dies, the IPC channel closes and the child exits too.

/** @param {{ url: string, close: () => Promise<void> }} server */
export function serveIpc(server) {
  if (!process.send) throw new Error('start this file through scripts/bench/run.mjs (needs an IPC channel)');
  process.on('message', async (message) => {
    if (message?.type === 'memory') {
      process.send({ type: 'memory', id: message.id, memory: await settledMemory() });
    } else if (message?.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send({ type: 'cpu', id: message.id, microseconds: user + system });
    } else if (message?.type === 'stop') {
      await server.close().catch(() => {});
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ type: 'ready', url: server.url });
}

async function settledMemory() {
  for (let round = 0; round < 3; round += 1) {
    globalThis.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, external, arrayBuffers };
}
