import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatReadState, NotificationSettings } from '@confab/client/protocol';
import { createAgent, allowDeveloperAgents } from './support/agents';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, type TestSocket } from './support/wsClient';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerOn, startCluster } from './support/cluster';
import { redisAvailable } from './support/redis';

/**
 * Notifications (docs/CONTRACTS.md, Notifications) on the real server and both databases: the
 * per-chat level, what chat_activity tells a notifying client, the e-mail switch and its
 * unsubscribe link, and the missed-mention mail sweep under a clock the test moves.
 */
const variants = await databaseVariants();
const publicUrl = 'https://confab.example';
const sweepMs = 40;

describe.each(variants)('notifications ($name)', (variant) => {
  let testServer: TestServer;
  let clockOffsetMs = 0;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    testServer = await startTestServer(variant, { now: () => new Date(Date.now() + clockOffsetMs), missedMentionSweepMs: sweepMs, publicUrl });
  });

  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await testServer?.close();
  });

  const minutesPass = (minutes: number) => {
    clockOffsetMs += minutes * 60_000;
  };
  const mailsTo = (user: RegisteredUser) => testServer.outboxMails().filter((mail) => mail.includes(`\r\nTo: ${user.email}\r\n`));
  /** Long enough for several sweeps, so "no mail" means the sweep saw it and sent none. */
  const sweepsPass = () => new Promise((resolve) => setTimeout(resolve, sweepMs * 8));
  const mailsArrive = async (user: RegisteredUser, count: number) => {
    const deadline = Date.now() + 5_000;
    while (mailsTo(user).length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} mails to ${user.username}, got ${mailsTo(user).length}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return mailsTo(user);
  };
  const socketOf = async (user: RegisteredUser) => {
    const socket = await authenticatedSocket(testServer.url, user.pb.authStore.token);
    sockets.push(socket);
    return socket;
  };
  const call = (method: string, path: string, user: RegisteredUser | undefined, body?: unknown) =>
    rawRequest(testServer.url, method, path, { ...(user === undefined ? {} : { token: user.pb.authStore.token }), ...(body === undefined ? {} : { body }) });

  it('sets a chat to all messages or mentions, for the caller only, and carries it on the chat record', async () => {
    const ann = await registerUser(testServer);
    const bob = await registerUser(testServer);
    const eve = await registerUser(testServer);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const bobsTab = await socketOf(bob);
    expect((await bob.pb.collection('chats').getOne(chat.id))['notify_level']).toBe('mentions');
    const answer = await call('POST', `/api/chats/${chat.id}/notifications`, bob, { level: 'all' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ chat_id: chat.id, last_read_seq: 0, unread_count: 0, mention_count: 0, muted: false, notify_level: 'all' } satisfies ChatReadState);
    expect(await bobsTab.nextOfType('read_state')).toMatchObject({ chat_id: chat.id, notify_level: 'all' });
    expect((await bob.pb.collection('chats').getOne(chat.id))['notify_level']).toBe('all');
    expect((await ann.pb.collection('chats').getOne(chat.id))['notify_level']).toBe('mentions');

    expect(await call('POST', `/api/chats/${chat.id}/notifications`, bob, { level: 'everything' })).toMatchObject({
      status: 400,
      body: { message: 'Failed to change the chat.', data: { level: { code: 'validation_invalid_value', message: 'Must be "all" or "mentions".' } } },
    });
    expect((await call('POST', `/api/chats/${chat.id}/notifications`, eve, { level: 'all' })).status).toBe(404);
    expect((await call('POST', `/api/chats/${chat.id}/notifications`, undefined, { level: 'all' })).status).toBe(401);
  });

  it('tells each participant whether a message notifies them, with what to show only when it does', async () => {
    const ann = await registerUser(testServer, { name: 'Ann Lee' });
    const bob = await registerUser(testServer);
    const carol = await registerUser(testServer);
    const chat = await createChat(ann, { name: 'Launch', participants: [bob.record.id, carol.record.id] });
    await call('POST', `/api/chats/${chat.id}/notifications`, bob, { level: 'all' });
    const bobsTab = await socketOf(bob);
    const carolsTab = await socketOf(carol);
    const plain = await postMessage(ann, chat.id, 'The **build** is green');
    expect(await bobsTab.nextOfType('chat_activity')).toMatchObject({ seq: 1, mentions_you: false, notify: true, message_id: plain.id, author_name: 'Ann Lee', preview: 'The build is green' });
    const carolsFirst = await carolsTab.nextOfType('chat_activity');
    expect(carolsFirst).toMatchObject({ seq: 1, mentions_you: false });
    expect(carolsFirst).not.toHaveProperty('preview');
    expect(carolsFirst).not.toHaveProperty('notify');

    await postMessage(ann, chat.id, `@${carol.username} ${'long '.repeat(60)}`);
    const mention = await carolsTab.nextOfType('chat_activity');
    expect(mention).toMatchObject({ seq: 2, mentions_you: true, notify: true });
    expect((mention['preview'] as string).length).toBeLessThanOrEqual(140);
    expect(mention['preview']).toMatch(/…$/);

    // Muted: nothing notifies, even at 'all', except a mention.
    await call('POST', `/api/chats/${chat.id}/mute`, bob, { muted: true });
    await postMessage(ann, chat.id, 'quiet now');
    expect(await bobsTab.next((frame) => frame.type === 'chat_activity' && frame['seq'] === 3)).not.toHaveProperty('notify');
    await postMessage(ann, chat.id, `@${bob.username} except this`);
    expect(await bobsTab.next((frame) => frame.type === 'chat_activity' && frame['seq'] === 4)).toMatchObject({ notify: true, mentions_you: true, preview: `@${bob.username} except this` });
  });

  it('mails a mention left unread 10 minutes to someone with no session: one mail per chat, the messages batched', async () => {
    const ann = await registerUser(testServer, { name: 'Ann Lee' });
    const bob = await registerUser(testServer, { name: 'Bob Stone' });
    const launch = await createChat(ann, { name: 'Launch <Plan>', participants: [bob.record.id] });
    const support = await createChat(ann, { name: 'Support', participants: [bob.record.id] });
    const first = await postMessage(ann, launch.id, `@${bob.username} can you check the **numbers**?`);
    await postMessage(ann, launch.id, 'not for bob');
    await postMessage(ann, launch.id, `and the dates, @${bob.username}`);
    await postMessage(ann, support.id, `@${bob.username} a ticket for you`);
    minutesPass(9);
    await sweepsPass();
    expect(mailsTo(bob)).toEqual([]);

    minutesPass(2);
    const mails = await mailsArrive(bob, 2);
    const launchMail = mails.find((mail) => mail.includes('Launch <Plan>')) ?? '';
    expect(launchMail).toContain('Subject: 2 messages for you in "Launch <Plan>"');
    expect(launchMail).toContain(`Ann Lee (`);
    expect(launchMail).toContain(`@${bob.username} can you check the numbers?`);
    expect(launchMail).toContain(`and the dates, @${bob.username}`);
    expect(launchMail).not.toContain('not for bob');
    expect(launchMail).toContain('&quot;Launch &lt;Plan&gt;&quot;');
    expect(launchMail).toContain(`${publicUrl}/chat/${launch.id}?message=${first.id}`);
    expect(launchMail).toMatch(/List-Unsubscribe: <https:\/\/confab\.example\/api\/notifications\/unsubscribe\?token=[\w-]+\.[\w-]+>/);
    expect(launchMail).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(mails.find((mail) => mail.includes('Support'))).toContain('Subject: You were mentioned in "Support"');

    // Mailed once: later sweeps send nothing more; a new mention is a new mail of its own.
    await sweepsPass();
    expect(mailsTo(bob)).toHaveLength(2);
    await postMessage(ann, support.id, `@${bob.username} one more`);
    minutesPass(11);
    const [latest] = (await mailsArrive(bob, 3)).slice(2);
    expect(latest).toContain('one more');
    expect(latest).not.toContain('a ticket for you');
  });

  it('mails nothing for a mention more than a day past the delay: the sweep reads one day of mentions', async () => {
    const ann = await registerUser(testServer, { name: 'Ann' });
    const cara = await registerUser(testServer, { name: 'Cara' });
    const chat = await createChat(ann, { participants: [cara.record.id] });
    // Stored while Cara's sweeps could not mail it (the clock jumps past the window at once).
    await postMessage(ann, chat.id, `@${cara.username} old news`);
    minutesPass(10 + 24 * 60 + 1);
    await sweepsPass();
    expect(mailsTo(cara)).toEqual([]);
    // A fresh mention in the same chat is mailed, alone.
    await postMessage(ann, chat.id, `@${cara.username} fresh`);
    minutesPass(11);
    const [mail] = await mailsArrive(cara, 1);
    expect(mail).toContain('fresh');
    expect(mail).not.toContain('old news');
  });

  it('sends nothing for a mention read in time, nor to someone with an open session until it closes', async () => {
    const ann = await registerUser(testServer);
    const reader = await registerUser(testServer);
    const online = await registerUser(testServer);
    const away = await registerUser(testServer);
    const chat = await createChat(ann, { participants: [reader.record.id, online.record.id, away.record.id] });
    const onlineTab = await socketOf(online);
    await postMessage(ann, chat.id, `@${reader.username} @${online.username} @${away.username} standup?`);
    expect((await call('POST', `/api/chats/${chat.id}/read`, reader, { seq: 1 })).status).toBe(200);
    minutesPass(11);
    await mailsArrive(away, 1);
    await sweepsPass();
    expect(mailsTo(reader)).toEqual([]);
    expect(mailsTo(online)).toEqual([]);
    // Still unread once the session is gone: now it is missed.
    await onlineTab.close();
    await mailsArrive(online, 1);
  });

  it('sends nothing to someone who switched the mails off or followed the unsubscribe link', async () => {
    const ann = await registerUser(testServer);
    const off = await registerUser(testServer);
    const leaver = await registerUser(testServer);
    const control = await registerUser(testServer);
    expect((await call('GET', '/api/notifications/settings', off)).body).toEqual({ email_notifications: true, email_available: true } satisfies NotificationSettings);
    expect((await call('POST', '/api/notifications/settings', off, { email_notifications: false })).body).toEqual({ email_notifications: false, email_available: true });
    expect((await call('GET', '/api/notifications/settings', off)).body).toMatchObject({ email_notifications: false });
    expect(await call('POST', '/api/notifications/settings', off, { email_notifications: 'no' })).toMatchObject({
      status: 400,
      body: { message: 'Failed to change the notification settings.', data: { email_notifications: { code: 'validation_invalid_value', message: 'Must be true or false.' } } },
    });
    expect((await call('GET', '/api/notifications/settings', undefined)).status).toBe(401);

    const chat = await createChat(ann, { participants: [off.record.id, leaver.record.id, control.record.id] });
    await postMessage(ann, chat.id, `@${leaver.username} first`);
    minutesPass(11);
    const [mail] = await mailsArrive(leaver, 1);
    const link = /List-Unsubscribe: <([^>]+)>/.exec(mail ?? '')?.[1] ?? '';
    const page = await fetch(link.replace(publicUrl, testServer.url));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('You will get no more e-mails about mentions you miss.');
    expect((await call('GET', '/api/notifications/settings', leaver)).body).toMatchObject({ email_notifications: false });
    const forged = await fetch(`${testServer.url}/api/notifications/unsubscribe?token=${link.split('token=')[1]}A`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('This unsubscribe link is not valid.');

    await postMessage(ann, chat.id, `@${off.username} @${leaver.username} @${control.username} again`);
    minutesPass(11);
    await mailsArrive(control, 1);
    await sweepsPass();
    expect(mailsTo(off)).toEqual([]);
    expect(mailsTo(leaver)).toHaveLength(1);
  });

  it('never mails agents or temporary accounts', async () => {
    const ann = await registerUser(testServer);
    const control = await registerUser(testServer);
    const chat = await createChat(ann, { participants: [control.record.id] });
    const share = await call('POST', `/api/create-share-link/${chat.id}`, ann, {});
    const token = String((share.body as { share_url: string }).share_url).split('/join/')[1];
    const joined = (await call('POST', `/api/accept-invitation/${token}`, undefined, { display_name: 'Guest' })).body as { username: string; temp_password: string };
    const guest = testServer.client();
    await guest.collection('users').authWithPassword(joined.username, joined.temp_password);
    expect((await rawRequest(testServer.url, 'GET', '/api/notifications/settings', { token: guest.authStore.token })).body).toEqual({ email_notifications: false, email_available: false });
    expect((await rawRequest(testServer.url, 'POST', '/api/notifications/settings', { token: guest.authStore.token, body: { email_notifications: true } })).body).toMatchObject({
      status: 400,
      data: { email_notifications: { message: 'This account has no e-mail address to write to.' } },
    });
    await allowDeveloperAgents(ann, chat.id);
    const agent = await createAgent(testServer.url, ann, { name: 'Helper' });
    await ann.pb.collection('chats').update(chat.id, { 'participants+': agent.agent.id });

    await postMessage(ann, chat.id, `@${joined.username} @${agent.agent.username} @${control.username} hello all`);
    minutesPass(11);
    await mailsArrive(control, 1);
    await sweepsPass();
    const recipients = testServer.outboxMails().map((mail) => /\r\nTo: ([^\r\n]+)/.exec(mail)?.[1] ?? '');
    expect(recipients.filter((to) => to.includes('temporary.confab.invalid') || to.includes(agent.agent.username))).toEqual([]);
  });
});

const postgres = variants.find((variant) => variant.name === 'postgres');
const clusterRunnable = postgres !== undefined && (await redisAvailable());

describe.runIf(clusterRunnable)('missed-mention mails from two instances on one PostgreSQL and Redis', () => {
  it('sends one mail, not two, when both instances sweep the same database, and none while the person is online on either', async () => {
    let clockOffsetMs = 0;
    const cluster = await startCluster(postgres!.baseUrl!, {
      secret: 'shared-secret-of-the-notify-cluster',
      now: () => new Date(Date.now() + clockOffsetMs),
      missedMentionSweepMs: 10,
      publicUrl,
    });
    try {
      const register = () => registerOn(cluster.a);
      const ann = await register();
      const bob = await register();
      const chat = await createChat(ann, { participants: [bob.record.id] });
      for (let index = 0; index < 5; index += 1) await postMessage(ann, chat.id, `@${bob.username} number ${index}`);
      // Mentions are noted just after a send is answered: all five, before ten minutes pass.
      const noted = Date.now() + 5_000;
      while ((await bob.pb.collection('chats').getOne(chat.id))['mention_count'] !== 5 && Date.now() < noted) await new Promise((resolve) => setTimeout(resolve, 20));
      const outbox = (dataDir: string) => {
        try {
          return readdirSync(join(dataDir, 'outbox')).map((name) => readFileSync(join(dataDir, 'outbox', name), 'utf8'));
        } catch {
          return [];
        }
      };
      const mails = () => [...outbox(cluster.a.dataDir), ...outbox(cluster.b.dataDir)].filter((mail) => mail.includes(`To: ${bob.email}`));
      clockOffsetMs = 11 * 60_000;
      const deadline = Date.now() + 5_000;
      while (mails().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      // Both instances go on sweeping many times over.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(mails().map((mail) => /Subject: (.*)/.exec(mail)?.[1]?.trim())).toEqual(['5 messages for you in "Test chat"']);
      expect(mails()[0]).toContain('number 4');

      // Online on the other instance only: neither instance mails Carol, since presence is shared.
      const carol = await register();
      const second = await createChat(ann, { participants: [carol.record.id] });
      const socket = await authenticatedSocket(cluster.b.url, carol.pb.authStore.token);
      try {
        await postMessage(ann, second.id, `@${carol.username} are you there`);
        clockOffsetMs = 22 * 60_000;
        await new Promise((resolve) => setTimeout(resolve, 400));
        const carolMails = () => [...outbox(cluster.a.dataDir), ...outbox(cluster.b.dataDir)].filter((mail) => mail.includes(`To: ${carol.email}`));
        expect(carolMails()).toEqual([]);
        await socket.close();
        const closedBy = Date.now() + 5_000;
        while (carolMails().length === 0 && Date.now() < closedBy) await new Promise((resolve) => setTimeout(resolve, 20));
        expect(carolMails()).toHaveLength(1);
      } finally {
        await socket.close();
      }
    } finally {
      await cluster.close();
    }
  });
});
