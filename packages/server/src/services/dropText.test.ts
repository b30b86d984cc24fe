import { describe, expect, it } from 'vitest';
import { discoverPages } from './drops';
import { excerptOf, featuredImageOf, readingTimeOf, slugBase, tagsOf } from './dropText';

describe('discoverPages', () => {
  const of = (chats: string) => [...chats].map((chat, index) => ({ id: `${chat}${index}`, chat }));

  it('puts at most 2 drops of one chat on a page and keeps the rest for later pages, in order', () => {
    expect(discoverPages(of('aaabbc'), 4)).toEqual([['a0', 'a1', 'b3', 'b4'], ['a2', 'c5']]);
  });

  it('loses nothing when one chat has every drop: short pages', () => {
    expect(discoverPages(of('aaaaa'), 20)).toEqual([['a0', 'a1'], ['a2', 'a3'], ['a4']]);
  });

  it('answers no pages for no candidates', () => {
    expect(discoverPages([], 20)).toEqual([]);
  });
});

describe('drop text', () => {
  it('slugs titles into lower-case ASCII words', () => {
    expect(slugBase('  Café Déjà Vu! ')).toBe('cafe-deja-vu');
    expect(slugBase('🎉')).toBe('');
    expect(slugBase('x'.repeat(80))).toHaveLength(60);
  });

  it('cuts the excerpt at a word and marks it', () => {
    const excerpt = excerptOf(`${'word '.repeat(100)}`);
    expect(excerpt.length).toBeLessThanOrEqual(200);
    expect(excerpt.endsWith('…')).toBe(true);
  });

  it('keeps the punctuation of the excerpt as written, the markup gone', () => {
    expect(excerptOf('We ship on **2026-11-26**, see you *Monday*.')).toBe('We ship on 2026-11-26, see you Monday.');
    expect(excerptOf('# Keys\n\n- Press `shift-enter` for a new line.\n- [Docs](https://example.com) <b>now</b>!')).toBe('Keys Press shift-enter for a new line. Docs now!');
  });

  it('reads at 200 words a minute, at least 1', () => {
    expect(readingTimeOf('one')).toBe(1);
    expect(readingTimeOf(Array.from({ length: 401 }, () => 'w').join(' '))).toBe(3);
  });

  it('finds #tags and the first http(s) image', () => {
    expect(tagsOf('#One #two #ONE a#b #12 #x-y')).toEqual(['one', 'two', 'x-y']);
    expect(featuredImageOf('![](data:image/png;base64,xx) ![a](https://i.example/a.png)')).toBe('https://i.example/a.png');
    expect(featuredImageOf('<img src="javascript:alert(1)">')).toBe('');
  });
});
