import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backendContract } from '@confab/client/testing/backendContract';
import { startServer } from '../src/index';

/*
 * The fake backend's contract (packages/client/src/testing/backendContract.ts) on a real
 * confab-server on SQLite: what the fake answers, the server answers the same way.
 */
backendContract('confab-server on SQLite', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'confab-contract-'));
  const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, logger: false, smtpUrl: '', signupsPerIpPerHour: 1000 });
  return {
    baseUrl: server.url,
    close: async () => {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});
