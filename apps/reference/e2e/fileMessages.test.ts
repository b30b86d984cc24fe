/**
 * File messages and system lines between two browsers through the real server: Ann adds Bob and
 * a line says so, in both chats, badging nobody; Ann uploads sales.csv and Bob sees its card live
 * and downloads it; Ann renames the chat in Chat Options and Bob sees the line live; deleting the
 * file turns Bob's card to 'File deleted'.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { accountOverApi, describeBrowser, startStack, type Stack } from './harness';

describeBrowser('file messages and system lines between two people', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('announces an added person, an upload and a rename to both people live', { timeout: 180_000 }, async () => {
    const ann = await accountOverApi(stack, 'ann');
    const bob = await accountOverApi(stack, 'bob');
    const chat = await ann.pb.collection('chats').create({ name: 'Sales' });
    const annTab = await stack.signIn(ann.account);
    await annTab.page.goto(`/chat/${chat.id}`);
    await annTab.page.getByText('Connected', { exact: true }).waitFor();

    // Ann adds Bob: a centred line, not a message, in her open chat at once.
    await ann.pb.collection('chats').update(chat.id, { 'participants+': bob.id });
    const addedText = `${ann.account.username} added ${bob.account.username}`;
    const added = annTab.page.getByRole('note', { name: addedText });
    await added.waitFor();
    expect(await annTab.page.getByRole('article').filter({ hasText: addedText }).count()).toBe(0);

    // Bob finds the chat with nothing unread, and the line in it.
    const bobTab = await stack.signIn(bob.account);
    await bobTab.page.getByRole('link', { name: 'Sales', exact: true }).waitFor();
    await bobTab.page.goto(`/chat/${chat.id}`);
    await bobTab.page.getByText('Connected', { exact: true }).waitFor();
    await bobTab.page.getByRole('note', { name: addedText }).waitFor();

    // Ann uploads sales.csv from the upload zone: Bob sees its card live, under Ann's name.
    await annTab.page.getByRole('button', { name: 'Upload files' }).click();
    await annTab.page.getByLabel('Choose files to upload').setInputFiles([{ name: 'sales.csv', mimeType: 'text/csv', buffer: Buffer.from('region,total\nnorth,10\nsouth,22\n') }]);
    const bobCard = bobTab.page.getByRole('region', { name: 'File sales.csv' });
    await bobCard.waitFor();
    await bobCard.getByText('CSV · 31 B').waitFor();
    expect(await bobTab.page.getByRole('article', { name: ann.account.username }).filter({ has: bobCard }).count()).toBe(1);
    await annTab.page.getByRole('region', { name: 'File sales.csv' }).waitFor();

    // Bob downloads it: the bytes Ann uploaded.
    const downloadLink = bobCard.getByRole('link', { name: 'Download sales.csv' });
    const href = await downloadLink.getAttribute('href');
    const downloaded = await bobTab.page.evaluate(async (url) => (await fetch(url!)).text(), href);
    expect(downloaded).toBe('region,total\nnorth,10\nsouth,22\n');

    // Ann renames the chat in Chat Options: Bob sees the line live.
    await annTab.page.getByRole('button', { name: 'Chat Options' }).click();
    const name = annTab.page.getByLabel('Name', { exact: true });
    await name.fill('Q3 Sales');
    await annTab.page.getByRole('button', { name: 'Save Changes' }).click();
    await annTab.page.getByText('Changes saved.').waitFor();
    await bobTab.page.getByRole('note', { name: `${ann.account.username} renamed the chat to Q3 Sales` }).waitFor();

    // The file is deleted: Bob's card says so, live, and offers nothing to open.
    const [file] = await ann.pb.collection('files').getFullList({ filter: ann.pb.filter('chat = {:chat}', { chat: chat.id }) });
    await ann.pb.collection('files').delete(file!.id);
    await bobCard.getByText('File deleted').waitFor();
    expect(await bobCard.getByRole('link').count()).toBe(0);

    // A reload shows the same from the server, in order.
    await bobTab.page.reload();
    await bobTab.page.getByRole('note', { name: `${ann.account.username} renamed the chat to Q3 Sales` }).waitFor();
    await bobTab.page.getByRole('region', { name: 'File sales.csv' }).getByText('File deleted').waitFor();
    await bobTab.page.getByRole('note', { name: addedText }).waitFor();
  });
});
