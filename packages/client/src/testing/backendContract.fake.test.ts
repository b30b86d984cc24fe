import { backendContract } from './backendContract';
import { createFakeBackend } from './fakeBackend';

/* The contract on the fake backend; packages/server/test/backendContract.test.ts runs it on the real server. */
backendContract('fake backend', async () => {
  const fake = createFakeBackend();
  return { baseUrl: 'http://confab.test', fetch: fake.fetch, close: async () => {} };
});
