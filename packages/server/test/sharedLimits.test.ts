import PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfabServer } from '../src/index';
import { registerOn, signedInOn, startCluster, type Cluster } from './support/cluster';
import { databaseVariants } from './support/databases';
import { createChat, failureOf, postMessage, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { redisAvailable } from './support/redis';

/**
 * docs/SECURITY.md O1: with REDIS_URL every per-person, per-address and per-chat limit is
 * one count shared by all instances, not a share per instance. Two instances on one PostgreSQL
 * and one Redis, as behind a load balancer, with small limits; each limit is spent half on A and
 * half on B, and the next request is refused wherever it lands.
 */
const postgres = (await databaseVariants()).find((variant) => variant.name === 'postgres');
const runnable = postgres !== undefined && (await redisAvailable());

describe.runIf(runnable)('limits shared by two instances through Redis', () => {
  let cluster: Cluster | undefined;
  let instanceA: ConfabServer;
  let instanceB: ConfabServer;
  // A fixed clock: windows never roll over and token buckets never refill during the test.
  const now = () => new Date(Date.UTC(2026, 10, 26, 10, 0, 0));

  beforeAll(async () => {
    cluster = await startCluster(postgres!.baseUrl!, {
      secret: 'limits-cluster',
      now,
      signupsPerIpPerHour: 6, messagesPerUserPerSecond: 2, temporaryAccountsPerIpPerHour: 2, uploadMegabytesPerUserPerHour: 1, agentsPerUserPerHour: 2,
    });
    ({ a: instanceA, b: instanceB } = cluster);
  });

  afterAll(async () => {
    await cluster?.close();
  });

  const register = (server: ConfabServer) => registerOn(server);
  const on = signedInOn;
  const signup = (server: ConfabServer, username: string) =>
    rawRequest(server.url, 'POST', '/api/collections/users/records', {
      body: { username, email: `${username}@example.test`, password: 'correct horse battery', passwordConfirm: 'correct horse battery' },
    });

  // Sign-ups: 6 an hour from this address, three on each instance; the fourth (the test's own
  // two below included) is refused on either. Ordered first, as the other cases register users.
  let ann: RegisteredUser;
  let bob: RegisteredUser;

  it('counts sign-ups from one address on both instances together', async () => {
    ann = await register(instanceA);
    bob = await register(instanceB);
    expect((await signup(instanceA, 'shared_one')).status).toBe(200);
    expect((await signup(instanceB, 'shared_two')).status).toBe(200);
    expect((await signup(instanceA, 'shared_three')).status).toBe(200);
    expect((await signup(instanceB, 'shared_four')).status).toBe(200);
    expect((await signup(instanceA, 'shared_five')).status).toBe(429);
    expect((await signup(instanceB, 'shared_five')).status).toBe(429);
  });

  it('counts failed logins of one account on both instances together', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const server = attempt % 2 === 0 ? instanceA : instanceB;
      const failure = await failureOf(() => new PocketBase(server.url).collection('users').authWithPassword(ann.username, 'wrong guess'));
      expect(failure.status).toBe(400);
    }
    for (const server of [instanceA, instanceB]) {
      const limited = await failureOf(() => new PocketBase(server.url).collection('users').authWithPassword(ann.username, ann.password));
      expect(limited.status).toBe(429);
    }
  });

  it('counts one user’s messages on both instances together', async () => {
    const chat = await createChat(bob, { name: 'Shared flood' });
    const bobOnA = on(instanceA, bob);
    await postMessage(bob, chat.id, 'B 1');
    await postMessage(bobOnA, chat.id, 'A 1');
    await postMessage(bob, chat.id, 'B 2');
    await postMessage(bobOnA, chat.id, 'A 2');
    expect((await failureOf(() => postMessage(bob, chat.id, 'B 3'))).status).toBe(429);
    expect((await failureOf(() => postMessage(bobOnA, chat.id, 'A 3'))).status).toBe(429);
  });

  it('counts temporary accounts from share links on both instances together', async () => {
    const chat = await createChat(bob, { name: 'Shared link' });
    const link = await rawRequest(instanceB.url, 'POST', `/api/create-share-link/${chat.id}`, { token: bob.pb.authStore.token, body: {} });
    const token = String((link.body as { share_url: string }).share_url).split('/join/')[1] ?? '';
    const join = (server: ConfabServer) => rawRequest(server.url, 'POST', `/api/accept-invitation/${token}`, { body: { display_name: 'Guest' } });
    expect((await join(instanceA)).status).toBe(200);
    expect((await join(instanceB)).status).toBe(200);
    expect((await join(instanceA)).status).toBe(429);
    expect((await join(instanceB)).status).toBe(429);
  });

  it('counts one person’s new agents on both instances together', async () => {
    const create = (server: ConfabServer, name: string) => rawRequest(server.url, 'POST', '/api/agents', { token: bob.pb.authStore.token, body: { name } });
    expect((await create(instanceA, 'Shared Agent One')).status).toBe(200);
    expect((await create(instanceB, 'Shared Agent Two')).status).toBe(200);
    expect((await create(instanceA, 'Shared Agent Three')).status).toBe(429);
    expect((await create(instanceB, 'Shared Agent Three')).status).toBe(429);
  });

  it('counts one user’s upload allowance on both instances together', async () => {
    const chat = await createChat(bob, { name: 'Shared uploads' });
    const upload = async (server: ConfabServer, name: string) => {
      const form = new FormData();
      form.append('chat', chat.id);
      form.append('file', new Blob([Buffer.alloc(600 * 1024, 'a')], { type: 'text/plain' }), name);
      const response = await fetch(`${server.url}/api/collections/files/records`, { method: 'POST', headers: { authorization: bob.pb.authStore.token }, body: form });
      await response.arrayBuffer();
      return response.status;
    };
    // 1 MB an hour: 600 KB on A, 600 KB on B (the allowance is checked before, spent after), then neither.
    expect(await upload(instanceA, 'one.txt')).toBe(200);
    expect(await upload(instanceB, 'two.txt')).toBe(200);
    expect(await upload(instanceA, 'three.txt')).toBe(429);
    expect(await upload(instanceB, 'three.txt')).toBe(429);
  });
});
