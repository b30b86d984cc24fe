// Runs in the project's plain Node environment on purpose: there is no global window here.
import { describe, expect, it } from 'vitest';
import { createMessageRenderer, renderMessageContent } from './renderMessageContent';

describe('renderMessageContent without a DOM', () => {
  it('returns escaped-by-the-UI text instead of unsanitised HTML', () => {
    const body = '<img src=x onerror=alert(1)> **hi**';
    expect(renderMessageContent(body)).toEqual({ kind: 'text', text: body });
  });

  it('still recognises search results', () => {
    const body = JSON.stringify({ type: 'search_results', results: [] });
    expect(renderMessageContent(body).kind).toBe('search_results');
  });

  it('sanitises with an injected window', async () => {
    const render = createMessageRenderer(await jsdomWindow());
    expect(render('**hi** <img src=x onerror=alert(1)>')).toEqual({
      kind: 'html',
      html: '<p><strong>hi</strong> <img src="x" loading="lazy" decoding="async" referrerpolicy="no-referrer" alt=""></p>',
    });
  });

  it("gives an image without text alt=\"\" (decorative) and keeps its author's alt", async () => {
    const render = createMessageRenderer(await jsdomWindow());
    expect(render('<img src=a.png>')).toMatchObject({ html: expect.stringContaining('alt=""') });
    const described = render('<img src=a.png alt="A graph of sign-ups">');
    expect(described).toMatchObject({ html: expect.stringContaining('alt="A graph of sign-ups"') });
    expect(described).not.toMatchObject({ html: expect.stringContaining('alt=""') });
  });

  it('returns text for a window DOMPurify cannot use', () => {
    const render = createMessageRenderer({} as never);
    expect(render('hi')).toEqual({ kind: 'text', text: 'hi' });
  });
});

/** jsdom ships no types (and @types/jsdom is not installed); a variable specifier keeps tsc out of it. */
async function jsdomWindow(): Promise<Window & typeof globalThis> {
  const specifier = 'jsdom';
  const { JSDOM } = (await import(specifier)) as { JSDOM: new (html: string) => { window: Window & typeof globalThis } };
  return new JSDOM('').window;
}
