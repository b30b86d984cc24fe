import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfabClient } from '../client/ConfabClient';
import { errorResponse, json } from '../testing/fakeHttp';
import { startFakeServer } from '../testing/fakeServer';
import type { FakeServer } from '../testing/fakeServer';

let server: FakeServer;
let client: ConfabClient;

beforeEach(async () => {
  server = await startFakeServer();
  // complete-account's rules (who may, which names are free) are the real server's: scripted here.
  server.backend.override('POST /api/complete-account', (_request, body) =>
    body['username'] === 'taken'
      ? errorResponse(400, 'Failed.', { username: { code: 'validation_not_unique', message: 'Username already taken.' } })
      : json(200, { message: 'Account completed' }),
  );
  client = new ConfabClient({ baseUrl: server.url, realtime: { autoConnect: false } });
  await client.login('alice', 'correct-horse');
});

afterEach(async () => {
  client.logout();
  await server.close();
});

const lastRequest = () => server.requests.at(-1);

describe('account.completeAccount', () => {
  it('posts the e-mail trimmed and lower-cased, with the bearer token', async () => {
    await client.account.completeAccount({ email: '  Ada@Example.COM ', username: ' ada ', password: 'long-secret' });
    expect(lastRequest()?.body).toEqual({ email: 'ada@example.com', username: 'ada', password: 'long-secret' });
    expect(lastRequest()?.headers['authorization']).toMatch(/^Bearer /);
  });

  it('maps field errors to the spec text', async () => {
    await expect(client.account.completeAccount({ email: 'a@b.co', username: 'taken', password: 'long-secret' })).rejects.toMatchObject({
      status: 400,
      message: 'Username: Username already taken.',
    });
  });
});

describe('account.updateUsername and saveApiKeys', () => {
  it('updates the username and the session record', async () => {
    await client.account.updateUsername(' alicia ');
    expect(lastRequest()?.body).toEqual({ username: 'alicia' });
    expect(client.store.getState().user?.username).toBe('alicia');
  });

  it('sends only the keys given, and needs one', async () => {
    const user = await client.account.saveApiKeys({ openai: ' sk-1 ', gemini: '' });
    expect(lastRequest()?.body).toEqual({ openai_api_key: 'sk-1' });
    expect(user.openai_api_key_set).toBe(true);
    expect(client.store.getState().user?.openai_api_key_set).toBe(true);
    await expect(client.account.saveApiKeys({ openai: ' ', gemini: '' })).rejects.toMatchObject({ message: 'Please enter at least one API key.' });
  });

  it('completes a signup: names the account, then signs in with the temporary password', async () => {
    const user = await client.account.completeSignup({ userId: 'alice0000000001', tempPassword: 'correct-horse', username: ' alicia ', displayName: '' });
    expect(server.requests.find((request) => request.method === 'PATCH')?.body).toEqual({ username: 'alicia', name: 'alicia' });
    expect(user.username).toBe('alicia');
  });

  it('signs in with temporary credentials', async () => {
    client.logout();
    await expect(client.account.loginWithTemporaryPassword('alice', 'correct-horse')).resolves.toMatchObject({ username: 'alice' });
  });
});
