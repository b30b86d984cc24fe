import type { WireMessage } from '@confab/client/protocol';
import nodemailer from 'nodemailer';
import type { RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDraft, recipientOf } from '../src/agents/hosted/email';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, type TestSocket } from './support/wsClient';

/** @email with no AI key: a draft is shown, and sent once only when its asker confirms. */
const variants = await databaseVariants();

describe.each(variants)('@email ($name)', (variant) => {
  let testServer: TestServer;
  let alice: RegisteredUser;
  let bob: RegisteredUser;
  let chat: RecordModel;
  let socket: TestSocket;

  /** Posts as `who` and waits for @email's answer in the chat. */
  async function ask(who: RegisteredUser, text: string): Promise<WireMessage> {
    await postMessage(who, chat.id, text);
    for (;;) {
      const message = await socket.nextMessage(chat.id, 10_000);
      if (message.author_username === 'email' && message.message_type !== 'email') return message;
    }
  }

  beforeAll(async () => {
    testServer = await startTestServer(variant, { inboundSmtp: '127.0.0.1:0' });
    alice = await registerUser(testServer, { name: 'Alice' });
    bob = await registerUser(testServer, { name: 'Bob' });
    chat = await createChat(alice, { name: 'Launch', participants: [bob.record.id] });
    socket = await authenticatedSocket(testServer.url, alice.pb.authStore.token);
    await socket.join(chat.id);
  });

  afterAll(async () => {
    await socket?.close();
    await testServer?.close();
  });

  it('shows a draft and sends nothing until the asker confirms; another person cannot send it; it is sent once', async () => {
    await postMessage(alice, chat.id, 'We launch on Monday at 9.');
    await postMessage(bob, chat.id, 'The press kit is ready.');
    const before = testServer.outboxMails().length;
    const draft = await ask(alice, '@email send a summary of this chat to carol@example.com');
    expect(draft.content).toContain('Nothing is sent yet');
    expect(draft.content).toContain('carol@example.com');
    expect(draft.content).toContain('We launch on Monday at 9.');
    expect(draft.content).toContain('/profile');
    expect(testServer.outboxMails()).toHaveLength(before);

    // Bob's "@email send" does not send Alice's draft.
    const refused = await ask(bob, '@email send');
    expect(refused.content).toContain('no draft waiting');
    expect(testServer.outboxMails()).toHaveLength(before);

    const sent = await ask(alice, '@email send');
    expect(sent.content).toContain('Sent');
    const mails = testServer.outboxMails().slice(before);
    expect(mails).toHaveLength(1);
    const address = `${chat['email_address']}@confab.localhost`;
    expect(mails[0]).toContain(`From: "Launch" <${address}>`);
    expect(mails[0]).toContain(`Reply-To: ${address}`);
    expect(mails[0]).toContain('To: carol@example.com');
    expect(mails[0]).toContain('The press kit is ready.');

    // Confirming again sends nothing more.
    expect((await ask(alice, '@email send')).content).toContain('no draft waiting');
    expect(testServer.outboxMails().slice(before)).toHaveLength(1);
  });

  it('a cancelled draft is never sent', async () => {
    const before = testServer.outboxMails().length;
    await ask(alice, '@email send a summary of this chat to dave@example.com');
    expect((await ask(alice, '@email cancel')).content).toContain('Nothing was sent');
    expect((await ask(alice, '@email send')).content).toContain('no draft waiting');
    expect(testServer.outboxMails()).toHaveLength(before);
  });

  it("lists the chat's recent mail", async () => {
    const sender = nodemailer.createTransport({ host: '127.0.0.1', port: testServer.server.inboundSmtpPort, secure: false, ignoreTLS: true });
    try {
      await sender.sendMail({ from: 'Erin <erin@example.com>', to: `${chat['email_address']}@confab.localhost`, subject: 'Press question', text: 'When is the launch?', messageId: '<press-1@example.com>' });
    } finally {
      sender.close();
    }
    const listed = await ask(alice, '@email');
    expect(listed.content).toContain('erin@example.com');
    expect(listed.content).toContain('Press question');

    // A reply to the latest mail goes to its sender, in its thread, once confirmed.
    const before = testServer.outboxMails().length;
    const draft = await ask(alice, '@email reply We launch on Monday at 9.');
    expect(draft.content).toContain('Draft** to erin@example.com');
    expect(draft.content).toContain('Re: Press question');
    expect(testServer.outboxMails()).toHaveLength(before);
    expect((await ask(alice, '@email send')).content).toContain('Sent');
    const mails = testServer.outboxMails().slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('To: erin@example.com');
    expect(mails[0]).toContain('Subject: Re: Press question');
    expect(mails[0]).toContain('In-Reply-To: <press-1@example.com>');
    expect(mails[0]).toContain('We launch on Monday at 9.');
  });
});

describe('@email parts', () => {
  it('finds the recipient and parses a model draft (drafts themselves: emailDrafts.test.ts)', () => {
    expect(recipientOf('send a summary to bob@example.com please')).toBe('bob@example.com');
    expect(recipientOf('send the minutes')).toBeUndefined();
    expect(parseDraft('Here: {"subject": "Hi", "body": "Text"}')).toEqual({ subject: 'Hi', text: 'Text' });
    expect(parseDraft('no json')).toBeUndefined();
  });
});
