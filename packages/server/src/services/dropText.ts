import { reservedDropSlugs } from '@confab/client/protocol';
import { markdownToPlainText } from '@confab/client/rules';

/** Words read per minute for `reading_time`. */
const wordsPerMinute = 200;
const excerptMaximum = 200;
const slugMaximum = 60;

/** A URL-safe base for a slug: lower-case ASCII words joined by `-` ('' when nothing is left). */
export function slugBase(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, slugMaximum)
    .replace(/-+$/g, '');
}

/** True when a slug would shadow a feed path (/api/drops/feed …) or is empty. */
export function isReservedSlug(slug: string): boolean {
  return slug === '' || (reservedDropSlugs as readonly string[]).includes(slug);
}

/**
 * The content as plain text: markdown and HTML markup removed, whitespace folded, punctuation kept
 * as written (the client's rule, so excerpts and previews read alike everywhere).
 */
export function plainText(markdown: string): string {
  return markdownToPlainText(markdown);
}

export function excerptOf(markdown: string): string {
  const text = plainText(markdown);
  if (text.length <= excerptMaximum) return text;
  const cut = text.slice(0, excerptMaximum - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > excerptMaximum / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

export function readingTimeOf(markdown: string): number {
  const words = plainText(markdown).split(' ').filter((word) => word !== '').length;
  return Math.max(1, Math.ceil(words / wordsPerMinute));
}

/** #hashtags (letters, digits, _ and -), lower-cased, each once, in order of appearance. */
export function tagsOf(markdown: string): string[] {
  const tags = new Set<string>();
  for (const match of markdown.matchAll(/(?<![\w&#/])#([\p{L}\p{N}_-]{1,40})/gu)) {
    const tag = (match[1] ?? '').toLowerCase();
    if (!/^\d+$/.test(tag)) tags.add(tag);
  }
  return [...tags].slice(0, 20);
}

/** The first markdown or HTML image with an http(s) address, or ''. */
export function featuredImageOf(markdown: string): string {
  const candidates = [
    ...[...markdown.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => ({ index: match.index ?? 0, url: match[1] ?? '' })),
    ...[...markdown.matchAll(/<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/gi)].map((match) => ({ index: match.index ?? 0, url: match[1] ?? '' })),
  ].sort((a, b) => a.index - b.index);
  for (const { url } of candidates) {
    try {
      const parsed = new URL(url);
      if ((parsed.protocol === 'https:' || parsed.protocol === 'http:') && url.length <= 2000) return parsed.toString();
    } catch {
      // Not an absolute URL: not a featured image.
    }
  }
  return '';
}
