import { Lexer, type Token, type Tokens } from 'marked';

/*
 * Markdown as one line of plain text, for excerpts and previews: the words and their punctuation
 * exactly as written ("2026-11-26", "shift-enter", "Monday."), the markup gone. It reads the
 * markdown with the same parser as the message renderer, so only what renders as markup is
 * removed; a hyphen, an asterisk or an underscore that is just a character stays.
 */

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** `&amp;`, `&#39;`, `&#x2014;` …: what the renderer would show for them. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (match, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return entities[name.toLowerCase()] ?? match;
  });
}

/** The text of raw HTML: tags out, scripts and styles with their content, comments. */
function htmlText(html: string, block: boolean): string {
  const text = html
    .replace(/<(script|style|noscript|svg)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?(-->|$)/g, ' ')
    // An inline tag sits inside a word (`Mon<b>day</b>`): it leaves no space behind.
    .replace(/<[^>]*>/g, block ? ' ' : '');
  return decodeEntities(text);
}

function tokensText(tokens: readonly Token[] | undefined): string {
  return (tokens ?? []).map(tokenText).join('');
}

function tokenText(token: Token): string {
  switch (token.type) {
    case 'space':
    case 'hr':
    case 'br':
    case 'def':
    case 'checkbox':
      return ' ';
    // Code blocks and pictures are not prose: an excerpt leaves them out.
    case 'code':
    case 'image':
      return ' ';
    case 'codespan':
    case 'escape':
      return decodeEntities((token as Tokens.Codespan | Tokens.Escape).text);
    case 'html':
      return htmlText((token as Tokens.HTML).text, (token as Tokens.HTML).block);
    case 'heading':
    case 'paragraph':
    case 'blockquote':
      return ` ${tokensText((token as Tokens.Heading).tokens)} `;
    case 'list':
      return ` ${(token as Tokens.List).items.map((item) => tokensText(item.tokens)).join(' ')} `;
    case 'table': {
      const table = token as Tokens.Table;
      const cells = [...table.header, ...table.rows.flat()].map((cell) => tokensText(cell.tokens));
      return ` ${cells.join(' ')} `;
    }
    default: {
      const generic = token as { tokens?: Token[]; text?: unknown };
      if (generic.tokens !== undefined) return tokensText(generic.tokens);
      return typeof generic.text === 'string' ? decodeEntities(generic.text) : '';
    }
  }
}

/**
 * The markdown (with any inline HTML) as plain text on one line: markup removed, entities
 * decoded, whitespace folded, punctuation kept as written.
 *
 * @example
 * markdownToPlainText('We ship **Monday**.\n\n- on 2026-11-26'); // 'We ship Monday. on 2026-11-26'
 */
export function markdownToPlainText(markdown: string): string {
  let text: string;
  try {
    text = tokensText(Lexer.lex(markdown, { gfm: true }));
  } catch {
    // The lexer does not throw on any text we know of; if it ever does, tags still go.
    text = htmlText(markdown, true);
  }
  return text.replace(/\s+/g, ' ').trim();
}
