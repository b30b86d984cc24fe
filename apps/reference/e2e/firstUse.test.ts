/**
 * What a new user hits first, measured in Chromium on the built app: the message input
 * grows with a multi-line message up to a limit and then scrolls, and on a phone (390×844) the chat
 * header stays compact and the empty input is one line with its placeholder unwrapped.
 */
import PocketBase from 'pocketbase';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createChatInBrowser, describeBrowser, newAccount, startStack, type Stack } from './harness';

describeBrowser('first use', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function openNewChat(name: string) {
    const account = newAccount('first');
    await new PocketBase(stack.baseUrl).collection('users').create({ ...account, passwordConfirm: account.password });
    const { context, page } = await stack.signIn(account);
    await createChatInBrowser(page, name);
    const field = page.getByLabel('Message', { exact: true });
    await field.waitFor();
    return { context, page, field };
  }

  const heightOf = async (locator: Locator) => (await locator.boundingBox())!.height;

  /** The field's line height and vertical padding and borders, from its computed style. */
  async function lineMetrics(field: Locator) {
    return field.evaluate((element) => {
      const style = getComputedStyle(element);
      const px = (value: string) => Number.parseFloat(value) || 0;
      return {
        line: px(style.lineHeight),
        chrome: px(style.paddingTop) + px(style.paddingBottom) + px(style.borderTopWidth) + px(style.borderBottomWidth),
      };
    });
  }

  async function typeLines(page: Page, field: Locator, lines: string[]) {
    await field.click();
    for (const [index, line] of lines.entries()) {
      if (index > 0) await page.keyboard.press('Shift+Enter');
      await page.keyboard.type(line);
    }
  }

  it('grows the message input with its lines up to a limit, then scrolls; sending shrinks it back', async () => {
    const { context, page, field } = await openNewChat('Growing input');
    const { line } = await lineMetrics(field);
    const empty = await heightOf(field);

    await typeLines(page, field, ['one', 'two', 'three']);
    expect(await field.inputValue()).toBe('one\ntwo\nthree');
    const three = await heightOf(field);
    expect(three).toBeGreaterThanOrEqual(empty + 2 * line - 1);

    await typeLines(page, field, Array.from({ length: 27 }, (_, index) => `more ${index}`));
    const limited = await heightOf(field);
    const viewport = page.viewportSize()!;
    expect(limited).toBeGreaterThan(three);
    expect(limited).toBeLessThanOrEqual(Math.max(9 * line + 24, 0.4 * viewport.height) + 1);
    const { scrollHeight, clientHeight, overflowY } = await field.evaluate((element) => ({
      scrollHeight: element.scrollHeight,
      clientHeight: element.clientHeight,
      overflowY: getComputedStyle(element).overflowY,
    }));
    expect(scrollHeight).toBeGreaterThan(clientHeight);
    expect(overflowY).toBe('auto');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('one more');
    expect(await heightOf(field)).toBeCloseTo(limited, 0);

    // Enter sends (Shift+Enter did not), and the empty field is one line again.
    await page.keyboard.press('Enter');
    await page.getByText('one more').waitFor();
    expect(await field.inputValue()).toBe('');
    expect(await heightOf(field)).toBeCloseTo(empty, 0);
    await context.close();
  });

  it('keeps the chat header compact and the empty input one line on a phone (390×844)', async () => {
    const { context, page, field } = await openNewChat('A chat with quite a long name for a small phone screen');
    await page.setViewportSize({ width: 390, height: 844 });
    const header = page.locator('header.cf-chat-header');
    // Two frames: the new layout, and what resize observers changed after it.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await heightOf(header)).toBeLessThanOrEqual(64);
    // Nothing sticks out sideways.
    expect(await header.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);

    const { line, chrome } = await lineMetrics(field);
    expect(await field.inputValue()).toBe('');
    expect(await heightOf(field)).toBeLessThanOrEqual(Math.max(line + chrome, 40) + 1);
    // The placeholder is one line, whole: measured in the field's font against the room inside it.
    const placeholder = await field.evaluate((element) => {
      const textarea = element as HTMLTextAreaElement;
      const style = getComputedStyle(textarea);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = textarea.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      return { text: textarea.placeholder, width: context.measureText(textarea.placeholder).width, room, whiteSpace: getComputedStyle(textarea, '::placeholder').whiteSpace };
    });
    expect(placeholder.text).toMatch(/^Type a message/);
    expect(placeholder.width).toBeLessThanOrEqual(placeholder.room);
    expect(placeholder.whiteSpace).toBe('nowrap');

    // The header's actions and search stay within reach behind their buttons.
    await page.getByRole('button', { name: 'Chat actions' }).click();
    await page.getByRole('button', { name: 'Chat Files' }).click();
    await page.getByRole('dialog', { name: 'Chat Files' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Search messages' }).click();
    await page.getByRole('searchbox', { name: 'Search messages' }).fill('nothing');
    expect(await heightOf(header)).toBeLessThanOrEqual(64);

    await context.close();
  });
});
