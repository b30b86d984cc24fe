import type { SystemLine, TimeAgoLocale } from '@confab/client';

type Phrases = Record<SystemLine['kind'], (actor: string, subject: string, name: string) => string>;

// English as the server writes its fallback (@confab/client's systemLineText), and Chinese.
const phrases: Record<TimeAgoLocale, Phrases> = {
  en: {
    added: (actor, subject) => `${actor} added ${subject}`,
    removed: (actor, subject) => `${actor} removed ${subject}`,
    joined_via_link: (actor) => `${actor} joined via a share link`,
    joined_via_invitation: (actor) => `${actor} joined via an invitation`,
    left: (actor) => `${actor} left`,
    renamed: (actor, _subject, name) => `${actor} renamed the chat to ${name}`,
  },
  zh: {
    added: (actor, subject) => `${actor} 添加了 ${subject}`,
    removed: (actor, subject) => `${actor} 移除了 ${subject}`,
    joined_via_link: (actor) => `${actor} 通过分享链接加入`,
    joined_via_invitation: (actor) => `${actor} 通过邀请加入`,
    left: (actor) => `${actor} 离开了聊天`,
    renamed: (actor, _subject, name) => `${actor} 将聊天重命名为 ${name}`,
  },
};

/**
 * A system line in the reader's language (docs/CONTRACTS.md, File messages and system lines), or
 * undefined for a kind this version does not know (show the message's content then). Names are
 * shown as given, never as markdown.
 */
export function systemLineLabel(line: SystemLine, locale: TimeAgoLocale = 'en'): string | undefined {
  const phrase = (phrases[locale] ?? phrases.en)[line.kind] as Phrases[SystemLine['kind']] | undefined;
  return phrase?.(line.actor.name, line.subject?.name ?? '', line.name ?? '');
}
