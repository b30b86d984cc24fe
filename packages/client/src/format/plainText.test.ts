import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countLabel } from './count';
import { markdownToPlainText } from './plainText';

describe('markdownToPlainText', () => {
  it('keeps punctuation as written', () => {
    expect(markdownToPlainText('We ship on 2026-11-26.')).toBe('We ship on 2026-11-26.');
    expect(markdownToPlainText('Press shift-enter for a new line; enter sends.')).toBe('Press shift-enter for a new line; enter sends.');
    expect(markdownToPlainText('See you **Monday**.')).toBe('See you Monday.');
    expect(markdownToPlainText('snake_case and 2 * 3 * 4 and a - b ~ c | d')).toBe('snake_case and 2 * 3 * 4 and a - b ~ c | d');
    expect(markdownToPlainText("It's _really_ done (mostly)! Isn't it? #launch")).toBe("It's really done (mostly)! Isn't it? #launch");
  });

  it('removes the markup: headings, lists, quotes, links, images, code, tables and HTML', () => {
    const markdown = [
      '# Launch plan',
      '> Ship it.',
      '- first: `npm test`',
      '1. second',
      '![chart](https://img.example/a.png) Read [the notes](https://example.com/notes), then www.example.com.',
      '```js\nconsole.log("not prose")\n```',
      '| region | total |\n| --- | ---: |\n| east | 4 |',
      '<script>alert("x")</script>',
      'Mon<b>day</b> &amp; Tuesday&#39;s \\*stars\\*',
      '---',
    ].join('\n\n');
    expect(markdownToPlainText(markdown)).toBe(
      'Launch plan Ship it. first: npm test second Read the notes, then www.example.com. region total east 4 Monday & Tuesday\'s *stars*',
    );
  });

  it('folds whitespace and answers nothing for nothing', () => {
    expect(markdownToPlainText('one\ntwo  \n\n three \t four')).toBe('one two three four');
    expect(markdownToPlainText('   ')).toBe('');
  });

  // Sentences of words and the punctuation people type between and inside them.
  const word = fc.stringMatching(/^[A-Za-zéß][A-Za-z0-9éß]{0,7}$/);
  const joiner = fc.constantFrom(' ', '-', '. ', ', ', '; ', ': ', '! ', '? ', '/', "'", ' (', ') ', ' - ', '.', ' & ', ' "', '" ');
  const sentence = fc
    .tuple(word, fc.array(fc.tuple(joiner, word), { maxLength: 12 }), fc.constantFrom('', '.', '!', '?', ':', ')'))
    .map(([first, rest, end]) => first + rest.map(([glue, next]) => glue + next).join('') + end);

  it('gives back any plain sentence unchanged', () => {
    fc.assert(
      fc.property(sentence, (text) => {
        expect(markdownToPlainText(text)).toBe(text.replace(/\s+/g, ' ').trim());
      }),
      { numRuns: 2_000 },
    );
  });

  it('gives back the words of a sentence whatever emphasis wraps them', () => {
    const marker = fc.constantFrom('', '', '**', '*', '_', '__', '~~', '`');
    const wrappedWords = fc.array(fc.tuple(sentence.filter((text) => !/[`"&]/.test(text)), marker), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(wrappedWords, (parts) => {
        const markdown = parts.map(([text, wrap]) => (text.includes(' ') || wrap === '' ? text : `${wrap}${text}${wrap}`)).join(' ');
        expect(markdownToPlainText(markdown)).toBe(parts.map(([text]) => text).join(' '));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('countLabel', () => {
  it('agrees in number', () => {
    expect(countLabel(0, 'drop')).toBe('0 drops');
    expect(countLabel(1, 'drop')).toBe('1 drop');
    expect(countLabel(2, 'like')).toBe('2 likes');
    expect(countLabel(1, 'search', 'searches')).toBe('1 search');
    expect(countLabel(5, 'search', 'searches')).toBe('5 searches');
  });
});
