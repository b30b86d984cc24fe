/**
 * Hosted agents end to end (docs/CONTRACTS.md, Hosted agents), in Chromium against the real server
 * whose OpenAI base URL is a local server speaking the OpenAI protocol: a person saves their own
 * key on My Profile, uploads a CSV, asks @data in words (the model calls run_sql) and sees the
 * streamed answer, its table and its chart; raw SQL works with no model; @drops writes a guide with
 * the key, and the reply's link opens the published drop.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAI } from '../../../packages/server/test/support/fakeOpenAI';
import { createChatInBrowser, describeBrowser, newAccount, registerInBrowser, startStack, type Stack } from './harness';

const salesCsv = 'month,region,amount\n2024-01-01,north,10\n2024-02-01,north,12.5\n2024-03-01,south,7\n2024-03-01,north,3\n';
const modelSql = 'SELECT region, sum(amount) AS total FROM sales GROUP BY region ORDER BY total DESC';

describeBrowser('hosted agents in Chromium', () => {
  let openai: FakeOpenAI;
  let stack: Stack;
  beforeAll(async () => {
    openai = await startFakeOpenAI();
    stack = await startStack({ openaiBaseUrl: openai.baseUrl, openaiModel: 'gpt-e2e' });
  });
  afterAll(async () => {
    await stack?.stop();
    await openai?.close();
  });

  async function send(page: Page, text: string) {
    const input = page.getByRole('combobox', { name: 'Message' });
    await input.fill(text);
    await page.getByRole('listbox', { name: 'Agents' }).waitFor({ state: 'detached' });
    await input.press('Enter');
  }

  it('@data answers in words with the person’s key, runs SQL with none, and @drops publishes a guide', { timeout: 180_000 }, async () => {
    const account = newAccount('analyst');
    const { context, page } = await stack.newPage();

    // Signs up, and saves an OpenAI key on My Profile.
    await registerInBrowser(page, account);
    await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('button', { name: /My Profile/ }).click();
    await page.waitForURL('**/profile');
    const keys = page.getByRole('form', { name: 'API Keys' });
    await keys.getByLabel('OpenAI API key').fill('sk-e2e-analyst-key-2468');
    await keys.getByRole('button', { name: 'Save API Keys' }).click();
    await page.getByText('API keys saved successfully! They will be used for AI agent requests.').waitFor();

    // A chat with a CSV uploaded through the upload zone.
    await page.goto('/');
    await createChatInBrowser(page, 'Sales review');
    await page.getByText('Connected', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Upload files' }).click();
    const zone = page.getByRole('region', { name: 'Upload zone' });
    await zone.waitFor();
    await page.getByLabel('Choose files to upload').setInputFiles([{ name: 'sales.csv', mimeType: 'text/csv', buffer: Buffer.from(salesCsv) }]);
    await zone.getByRole('list', { name: 'Recently uploaded' }).getByText('sales.csv').waitFor({ timeout: 30_000 });

    // A question in words: the model calls run_sql, then answers in a stream.
    const args = JSON.stringify({ sql: modelSql });
    openai.enqueue(
      { kind: 'tool_call', name: 'run_sql', fragments: [args.slice(0, 12), args.slice(12)] },
      { kind: 'text', chunks: ['North sold ', 'the most: ', '25.5 in all.'] },
    );
    await send(page, '@data which region sold the most?');
    const dataReplies = page.getByRole('article', { name: 'Data (Agent)' });
    const answer = dataReplies.filter({ hasText: 'North sold the most: 25.5 in all.' });
    await answer.waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => document.querySelector('article[aria-busy="true"]') === null);
    expect(await answer.locator('code').filter({ hasText: modelSql }).count()).toBeGreaterThan(0);
    const table = answer.getByRole('table');
    await table.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['region', 'total']);
    expect(await table.getByRole('row').filter({ hasText: 'north' }).getByRole('cell').allTextContents()).toEqual(['north', '25.5']);
    await dataReplies.getByRole('img').first().waitFor({ timeout: 15_000 });
    expect(await dataReplies.getByRole('img').count()).toBe(1);
    // The table shows once: the chart's copy of the values stays folded under 'Show the values'.
    expect(await dataReplies.getByRole('table').count()).toBe(1);
    await dataReplies.getByText('Show the values').click();
    expect(await dataReplies.getByRole('table').count()).toBe(2);
    // The person's own key paid, for the model configured.
    const sent = openai.requests.slice(-2);
    expect(sent.map((request) => request.headers['authorization'])).toEqual(['Bearer sk-e2e-analyst-key-2468', 'Bearer sk-e2e-analyst-key-2468']);
    expect(sent[0]?.body['model']).toBe('gpt-e2e');
    expect(JSON.stringify(sent[0]?.body['messages'])).toContain('table sales (4 rows, from sales.csv)');

    // Raw SQL needs no model: the answer is the SQL, its table, and a chart.
    const calls = openai.requests.length;
    const rawSql = 'SELECT region, sum(amount) AS total FROM sales GROUP BY region ORDER BY region';
    await send(page, `@data ${rawSql}`);
    const rawAnswer = dataReplies.filter({ has: page.locator('code', { hasText: rawSql }) });
    await rawAnswer.waitFor({ timeout: 20_000 });
    expect(await rawAnswer.getByRole('row').filter({ hasText: 'south' }).getByRole('cell').allTextContents()).toEqual(['south', '7']);
    await expect.poll(() => dataReplies.getByRole('img').count(), { timeout: 15_000 }).toBe(2);
    expect(openai.requests.length).toBe(calls);

    // @drops writes the guide with the key; the reply links to the published drop.
    openai.enqueue({ kind: 'text', chunks: [JSON.stringify({ title: 'Sales review guide', content: 'North sold the most (25.5).\n\nSouth sold 7.', tags: ['sales'] })] });
    await send(page, '@drops create a guide about our discussion');
    const link = page.getByRole('article', { name: 'Drops (Agent)' }).getByRole('link', { name: 'Sales review guide' });
    await link.waitFor({ timeout: 20_000 });
    expect(await link.getAttribute('href')).toBe('/drops/sales-review-guide');
    expect(openai.requests.at(-1)?.headers['authorization']).toBe('Bearer sk-e2e-analyst-key-2468');
    // Links in messages open in a new tab.
    const [dropPage] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await dropPage.waitForURL('**/drops/sales-review-guide');
    await dropPage.getByRole('heading', { level: 1, name: 'Sales review guide' }).waitFor();
    await dropPage.getByRole('article', { name: 'Sales review guide' }).getByText('North sold the most (25.5).').waitFor();
    expect(await dropPage.getByRole('article', { name: 'Sales review guide' }).getByText('#sales').count()).toBeGreaterThan(0);
  });
});
