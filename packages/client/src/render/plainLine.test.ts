// @vitest-environment jsdom
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPlainLine, markdownToSafeHtml, renderMessageContent } from './renderMessageContent';
import { sanitizerFor, type WindowLike } from './sanitizer';

const sanitize = sanitizerFor(window as unknown as WindowLike)!;
const fullPath = (content: string) => markdownToSafeHtml(content, sanitize);

// Characters a plain line may hold, and the ones markdown or HTML give a meaning to.
const plain = [...'abcXYZ019 ,.\'?!;:()"=+-', 'é', 'ß', 'Ж', '中', 'ע', '٣', '👍', '🎉', '©', '\u200D', '\uFE0F'];
const special = [...'*_~`[]<>&#|\\/@\n\t', '\u00A0', 'www.', 'http://', '1. ', '- ', '---', '===', '  '];

describe('the plain-line fast path', () => {
  it('gives exactly what markdown and the sanitiser give, for every line it takes', () => {
    const line = fc.array(fc.constantFrom(...plain, ...plain, ...special), { minLength: 1, maxLength: 40 }).map((parts) => parts.join(''));
    let taken = 0;
    fc.assert(
      fc.property(line, (content) => {
        if (!isPlainLine(content)) return;
        taken += 1;
        expect(renderMessageContent(content)).toEqual({ kind: 'html', html: fullPath(content) });
      }),
      { numRuns: 3_000 },
    );
    // The generator reaches the fast path often enough for the check to mean something.
    expect(taken).toBeGreaterThan(300);
  });

  it('takes everyday sentences and leaves markdown, mentions, links and lists to the full path', () => {
    for (const content of ['Message 1: sounds good to me.', 'Ship it (today) - 3 tasks left!', 'Heute um 10:30? 👍', '"quoted", he said; fine.'])
      expect(isPlainLine(content), content).toBe(true);
    for (const content of ['**bold**', 'hi @ann', 'see www.example.com', 'https://x.y', '- item', '1. first', '2) second', 'a\nb', ' indented', 'trailing ', 'a < b', 'Tom & Jerry', '# title', ''])
      expect(isPlainLine(content), content).toBe(false);
  });
});
