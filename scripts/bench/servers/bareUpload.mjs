// The upload baseline: a plain node:http server that streams each POST body to a file in a temp
// dir and answers JSON. No auth, no multipart parsing, no checks: what writing bytes costs.
import { createWriteStream, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { serveIpc } from './ipc.mjs';

const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir) throw new Error('BENCH_DATA_DIR is required');
let count = 0;
const server = createServer(async (request, response) => {
  count += 1;
  const path = join(dataDir, `upload-${count}.bin`);
  try {
    await pipeline(request, createWriteStream(path));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
  } catch {
    response.writeHead(500).end();
  } finally {
    rmSync(path, { force: true });
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();
serveIpc({ url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) });
