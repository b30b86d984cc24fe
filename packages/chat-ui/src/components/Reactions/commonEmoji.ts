/** One emoji the picker offers, with the name it is found and announced by. */
export interface EmojiChoice {
  emoji: string;
  name: string;
}

/** The picker's first grid: the reactions people use most, no download needed. */
export const commonEmoji: readonly EmojiChoice[] = [
  { emoji: '👍', name: 'thumbs up' },
  { emoji: '👎', name: 'thumbs down' },
  { emoji: '❤️', name: 'red heart' },
  { emoji: '😂', name: 'face with tears of joy' },
  { emoji: '😮', name: 'face with open mouth' },
  { emoji: '😢', name: 'crying face' },
  { emoji: '🎉', name: 'party popper' },
  { emoji: '🙏', name: 'folded hands' },
  { emoji: '👀', name: 'eyes' },
  { emoji: '🚀', name: 'rocket' },
  { emoji: '🔥', name: 'fire' },
  { emoji: '✅', name: 'check mark button' },
  { emoji: '❌', name: 'cross mark' },
  { emoji: '👏', name: 'clapping hands' },
  { emoji: '🙌', name: 'raising hands' },
  { emoji: '💯', name: 'hundred points' },
  { emoji: '🤔', name: 'thinking face' },
  { emoji: '😄', name: 'grinning face with smiling eyes' },
  { emoji: '😅', name: 'grinning face with sweat' },
  { emoji: '😍', name: 'smiling face with heart-eyes' },
  { emoji: '🤝', name: 'handshake' },
  { emoji: '👋', name: 'waving hand' },
  { emoji: '⭐', name: 'star' },
  { emoji: '☕', name: 'hot beverage' },
];

let loading: Promise<readonly EmojiChoice[]> | null = null;

/**
 * Every emoji of Unicode's list (unicode-emoji-json), fetched on first search only: about 30 kB
 * gzip that the chat page does not carry until someone searches.
 */
export function loadEmojiList(): Promise<readonly EmojiChoice[]> {
  loading ??= import('unicode-emoji-json/data-by-emoji.json').then(
    (module) => Object.entries((module as { default: Record<string, { name: string }> }).default).map(([emoji, data]) => ({ emoji, name: data.name })),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The choices whose name has every word of `query` (case-insensitive), at most `limit`. */
export function searchEmoji(list: readonly EmojiChoice[], query: string, limit = 48): EmojiChoice[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return list.slice(0, limit);
  return list.filter((choice) => words.every((word) => choice.name.includes(word))).slice(0, limit);
}
