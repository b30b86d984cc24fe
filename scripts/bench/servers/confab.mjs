// One confab-server, from source (docs/STYLE.md, Workspace packages resolve from source), on
// 127.0.0.1 with SQLite in a temp data dir. Started by run.mjs with `--conditions=@confab/source
// --import tsx`, so the .ts sources load.
import { startServer } from '../../../packages/server/src/index.ts';
import { serveIpc } from './ipc.mjs';

const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir) throw new Error('BENCH_DATA_DIR is required');
// BENCH_LOGGER=1: one JSON line per request, as the embedded default writes them.
const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, logger: process.env.BENCH_LOGGER === '1' });
serveIpc({ url: server.url, close: () => server.close() });
