/**
 * Files end to end (docs/CONTRACTS.md, Files), in Chromium against the real server: two people
 * share files in a chat (one chooses them, one drops them), see upload progress, find, preview,
 * play and download them, delete only their own (Delete and selection are offered on their own
 * files only), and a chat's index.html opens as its sandboxed live website in a new tab.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import PocketBase from 'pocketbase';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeBrowser, newAccount, startStack, type Stack } from './harness';
import { startNetworkCut } from './networkCut';
const toneMp3 = new URL('./fixtures/tone.mp3', import.meta.url);

describeBrowser('chat files in Chromium', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const signedIn = (account: { username: string; password: string }) => stack.signIn(account, { acceptDownloads: true });

  async function openFilesPanel(page: Page) {
    await page.getByRole('button', { name: 'Chat Files' }).click();
    const panel = page.getByRole('dialog', { name: 'Chat files' });
    await panel.waitFor();
    return panel;
  }

  it('shares, finds, plays, downloads and deletes files, and opens the live website', { timeout: 240_000 }, async () => {
    const alice = newAccount('alice');
    const bob = newAccount('bob');
    const pb = new PocketBase(stack.baseUrl);
    const bobRecord = await pb.collection('users').create({ ...bob, passwordConfirm: bob.password });
    await pb.collection('users').create({ ...alice, passwordConfirm: alice.password });
    await pb.collection('users').authWithPassword(alice.username, alice.password);
    const chat = await pb.collection('chats').create({ name: 'Shared files', participants: [bobRecord.id] });

    const bobPb = new PocketBase(stack.baseUrl);
    await bobPb.collection('users').authWithPassword(bob.username, bob.password);
    const { page, context } = await signedIn(alice);
    await page.goto(`/chat/${chat.id}`);
    await page.getByText('Connected', { exact: true }).waitFor();

    // Upload a CSV and an MP3 at once over a slowed-down network, so progress is visible.
    const csvRows = ['city,population', ...Array.from({ length: 12_000 }, (_, index) => `Town ${index},${1000 + index}`)];
    const csv = `${csvRows.join('\n')}\n`;
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 60 * 1024 });
    await page.getByRole('button', { name: 'Upload files' }).click();
    const zone = page.getByRole('region', { name: 'Upload zone' });
    await zone.waitFor();
    await page.getByLabel('Choose files to upload').setInputFiles([
      { name: 'cities.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) },
      { name: 'tone.mp3', mimeType: 'audio/mpeg', buffer: await readFile(toneMp3) },
    ]);
    const csvProgress = zone.getByRole('progressbar', { name: 'Uploading cities.csv' });
    await csvProgress.waitFor();
    // A percentage strictly between 0 and 100 shows up while the bytes are on their way.
    const sample = async () =>
      page.evaluate(() => {
        const bar = document.querySelector('[role="progressbar"][aria-label="Uploading cities.csv"]');
        if (bar === null) return null;
        return { value: Number(bar.getAttribute('aria-valuenow')), text: bar.parentElement?.querySelector('.cf-upload-list__percent')?.textContent ?? '' };
      });
    let midway: { value: number; text: string } | null = null;
    for (let attempt = 0; attempt < 400 && midway === null; attempt += 1) {
      const seen = await sample();
      if (seen !== null && seen.value > 0 && seen.value < 100) midway = seen;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(midway, 'a progress percentage between 0 and 100').not.toBeNull();
    expect(midway?.text).toBe(`${midway?.value}%`);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const recent = zone.getByRole('list', { name: 'Recently uploaded' });
    await recent.getByText('cities.csv').waitFor({ timeout: 30_000 });
    await recent.getByText('tone.mp3').waitFor();

    // Bob, in his own browser, shares a file of his own and sees Alice's.
    const bobSession = await signedIn(bob);
    await bobSession.page.goto(`/chat/${chat.id}`);
    await bobSession.page.getByText('Connected', { exact: true }).waitFor();
    await bobSession.page.getByRole('button', { name: 'Upload files' }).click();
    // Bob drags and drops his file onto the upload zone.
    const bobZone = bobSession.page.getByRole('region', { name: 'Upload zone' });
    const dropped = await bobSession.page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['Bob was here\n'], 'bob-notes.txt', { type: 'text/plain' }));
      return transfer;
    });
    await bobZone.dispatchEvent('dragenter', { dataTransfer: dropped });
    await bobZone.getByText('Drop the files to upload them').waitFor();
    await bobZone.dispatchEvent('dragover', { dataTransfer: dropped });
    await bobZone.dispatchEvent('drop', { dataTransfer: dropped });
    await bobSession.page.getByRole('list', { name: 'Recently uploaded' }).getByText('bob-notes.txt').waitFor();
    const bobPanel = await openFilesPanel(bobSession.page);
    for (const name of ['cities.csv', 'tone.mp3', 'bob-notes.txt']) await bobPanel.getByRole('button', { name, exact: true }).waitFor();

    // The files panel lists all three; search finds by name.
    const panel = await openFilesPanel(page);
    const files = panel.getByRole('list', { name: 'Files' });
    for (const name of ['cities.csv', 'tone.mp3', 'bob-notes.txt']) await files.getByRole('button', { name, exact: true }).waitFor();
    const search = panel.getByRole('searchbox', { name: 'Search files' });
    await search.fill('tone');
    await expect.poll(() => files.getByRole('listitem').count()).toBe(1);
    await search.fill('nothing-like-this');
    await panel.getByText('No files match your search. Try a different query.').waitFor();
    await search.fill('');

    // Preview the MP3 and play it.
    await files.getByRole('button', { name: 'tone.mp3', exact: true }).click();
    // The preview's player (the chat's file card for tone.mp3 has one of its own).
    const player = page.getByRole('dialog', { name: 'tone.mp3' }).getByLabel('Audio player for tone.mp3');
    await player.waitFor();
    const played = await player.evaluate(async (element) => {
      const audio = element as HTMLAudioElement;
      await audio.play();
      await new Promise((resolve) => setTimeout(resolve, 600));
      return { currentTime: audio.currentTime, duration: audio.duration, error: audio.error?.code ?? null };
    });
    expect(played.error).toBeNull();
    expect(played.currentTime).toBeGreaterThan(0.1);
    expect(played.duration).toBeGreaterThan(1);
    expect(await page.getByText('Failed to play audio file').count()).toBe(0);
    await page.getByRole('button', { name: 'Close preview' }).click();

    // Download the CSV: the bytes match what was uploaded.
    const downloadStarted = page.waitForEvent('download');
    await files.getByRole('link', { name: 'Download cities.csv' }).click();
    const download = await downloadStarted;
    expect(download.suggestedFilename()).toBe('cities.csv');
    const downloadedPath = await download.path();
    expect(await readFile(downloadedPath, 'utf8')).toBe(csv);

    // Bulk delete: only Alice's own files can be selected, so Bob's file stays.
    page.on('dialog', (dialog) => void dialog.accept());
    await panel.getByRole('button', { name: 'Select', exact: true }).click();
    expect(await panel.getByLabel('Select bob-notes.txt').count()).toBe(0);
    for (const name of ['cities.csv', 'tone.mp3']) await panel.getByLabel(`Select ${name}`).check();
    await panel.getByRole('button', { name: 'Delete selected (2)' }).click();
    await expect.poll(() => files.getByRole('listitem').count()).toBe(1);
    await files.getByRole('button', { name: 'bob-notes.txt', exact: true }).waitFor();
    // Bob's panel, open all along, follows Alice's deletions live.
    await expect.poll(() => bobPanel.getByRole('list', { name: 'Files' }).getByRole('listitem').count(), { timeout: 10_000 }).toBe(1);
    const left = await bobPb.collection('files').getFullList({ filter: `chat='${chat.id}'` });
    expect(left.map((file) => file['original_name'])).toEqual(['bob-notes.txt']);

    // Bob's file offers Alice no Delete (the server would refuse it); it does offer Bob one.
    expect(await files.getByRole('button', { name: 'Delete bob-notes.txt' }).count()).toBe(0);
    await bobPanel.getByRole('button', { name: 'Delete bob-notes.txt' }).waitFor();
    await panel.getByRole('button', { name: 'Close', exact: true }).click();

    // Refused uploads say why, per file, and the others still go through.
    await page.getByLabel('Choose files to upload').setInputFiles([
      { name: 'invoice.pdf', mimeType: 'application/pdf', buffer: Buffer.from('<!doctype html><script>alert(1)</script>') },
      { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
      { name: 'fine.md', mimeType: 'text/markdown', buffer: Buffer.from('# Fine\n') },
    ]);
    const failures = zone.getByRole('list', { name: 'Failed uploads' });
    await failures.getByText('Failed to upload invoice.pdf: The file content does not match its .pdf extension.').waitFor();
    await failures.getByText(/^Unsupported file format: \.exe\. Supported formats: /).waitFor();
    await recent.getByText('fine.md').waitFor();

    // The live website: upload an index.html with a script, then open it from the panel.
    await page.getByLabel('Choose files to upload').setInputFiles([
      {
        name: 'index.html',
        mimeType: 'text/html',
        buffer: Buffer.from(
          '<!doctype html><html><head><title>Chat site</title></head><body><h1>Our launch page</h1><p id="probe">waiting</p>' +
            '<script>var out = document.getElementById("probe"); var reach; try { reach = localStorage.getItem("pocketbase_auth") === null ? "no session" : "SESSION LEAKED"; } catch (e) { reach = "storage blocked"; } out.textContent = "script ran; " + reach + "; origin " + window.origin;</script>' +
            '</body></html>',
        ),
      },
    ]);
    await recent.getByText('index.html').waitFor();
    const livePanel = await openFilesPanel(page);
    await livePanel.getByRole('button', { name: 'index.html', exact: true }).waitFor();
    const popupOpened = context.waitForEvent('page');
    await livePanel.getByRole('link', { name: 'Open Live Website' }).click();
    const site = await popupOpened;
    await site.getByRole('heading', { name: 'Our launch page' }).waitFor();
    expect(new URL(site.url()).pathname).toMatch(new RegExp(`^/live/${chat.id}/~[^/]+/$`));
    await expect.poll(() => site.locator('#probe').textContent()).toMatch(/^script ran; storage blocked; origin null$/);
    await site.close();
  });
  it('keeps a file whose upload the network cut, and sends it again with Retry', { timeout: 120_000 }, async () => {
    const carol = newAccount('carol');
    const pb = new PocketBase(stack.baseUrl);
    await pb.collection('users').create({ ...carol, passwordConfirm: carol.password });
    await pb.collection('users').authWithPassword(carol.username, carol.password);
    const chat = await pb.collection('chats').create({ name: 'Flaky network' });
    // Carol reaches the server through a proxy the test can unplug.
    const cut = await startNetworkCut(new URL(stack.baseUrl));
    try {
      const { page, context } = await stack.signIn(carol, { baseURL: cut.url });
      await page.goto(`/chat/${chat.id}`);
      await page.getByText('Connected', { exact: true }).waitFor();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 40 * 1024 });
      await page.getByRole('button', { name: 'Upload files' }).click();
      const zone = page.getByRole('region', { name: 'Upload zone' });
      const draft = 'A paragraph of the launch report.\n'.repeat(12_000);
      await page.getByLabel('Choose files to upload').setInputFiles([{ name: 'report-draft.md', mimeType: 'text/markdown', buffer: Buffer.from(draft) }]);
      await zone.getByRole('progressbar', { name: 'Uploading report-draft.md' }).waitFor();

      cut.unplug();
      await zone.getByRole('list', { name: 'Failed uploads' }).getByText(/^Failed to upload report-draft\.md: /).waitFor({ timeout: 20_000 });
      expect(await pb.collection('files').getFullList({ filter: `chat='${chat.id}'` })).toEqual([]);
      // The server dropped the partial upload too.
      const incoming = join(stack.dataDir, 'files', '.incoming');
      await expect.poll(async () => (existsSync(incoming) ? (await readdir(incoming)).length : 0), { timeout: 10_000 }).toBe(0);

      cut.plug();
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await zone.getByRole('button', { name: 'Retry uploading report-draft.md' }).click();
      await zone.getByRole('list', { name: 'Recently uploaded' }).getByText('report-draft.md').waitFor({ timeout: 20_000 });
      const stored = await pb.collection('files').getFullList({ filter: `chat='${chat.id}'` });
      expect(stored.map((file) => [file['original_name'], file['size']])).toEqual([['report-draft.md', Buffer.byteLength(draft)]]);
      await context.close();
    } finally {
      await cut.close();
    }
  });
});
