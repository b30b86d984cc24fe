/**
 * The mention grammar, one for the message input's autocomplete, the server's router and the
 * agent SDK: `@` followed by word characters (`[A-Za-z0-9_]`), not preceded by a word character,
 * `@` or `.` (so `ann@example.com` mentions nobody). Matching is case-insensitive; usernames of
 * agents are always in this grammar.
 */
const mentionPattern = /(?<![\w@.])@(\w+)/g;

/** The usernames a text mentions, lower-cased, each once, in order of first appearance. */
export function extractMentions(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(mentionPattern)) found.add((match[1] ?? '').toLowerCase());
  return [...found];
}

/**
 * The text with its mentions made inert: each mention's `@` becomes the full-width `＠` (U+FF20),
 * which reads alike but mentions nobody, one UTF-16 unit for one, so offsets into the text stay
 * true. A mention of `keep` (an agent naming itself, as its help does) stays as written.
 */
export function inertMentions(text: string, keep?: string): string {
  const kept = keep?.toLowerCase();
  return text.replace(mentionPattern, (mention, name: string) => (name.toLowerCase() === kept ? mention : `＠${name}`));
}

/**
 * The mention being typed just before `cursor` (`@ec|` → `{ query: 'ec', start: 0 }`), else null.
 * A bare `@` is a mention begun with no letters yet (`@|` → `{ query: '', start: 0 }`): the
 * autocomplete lists the agents a chat permits before the first letter.
 */
export function mentionBeforeCursor(text: string, cursor: number): { query: string; start: number } | null {
  const before = text.slice(0, Math.max(0, Math.min(cursor, text.length)));
  const match = /(?<![\w@.])@(\w*)$/.exec(before);
  if (match === null || match[1] === undefined) return null;
  return { query: match[1], start: match.index };
}

/** An agent username for a display name: `Echo Bot` → `echo_bot` (lower-case word characters, 3–30). */
export function usernameFromName(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 30)
    .replace(/_+$/g, '');
  return base.length >= 3 ? base : `${base || 'agent'}_bot`.slice(0, 30);
}

/** An agent username someone typed: 3–30 of `[a-z0-9_]` (the mention grammar, lower-case). */
export function isAgentUsername(username: string): boolean {
  return /^[a-z0-9_]{3,30}$/.test(username);
}
