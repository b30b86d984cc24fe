import { reactionTexts } from '../protocol/reactions';

/*
 * One RGI emoji (Unicode's recommended-for-general-interchange set: 👍, ❤️, 🏳️‍🌈, 👍🏽 …), the
 * one rule for a reaction on both sides. Built from a string because the `v` flag is newer than
 * the compile target; every supported runtime (Node 20, current browsers) has it.
 */
const singleEmoji = new RegExp('^\\p{RGI_Emoji}$', 'v');

/** The longest reaction accepted, in UTF-16 units: the longest RGI sequences (families, flags) fit. */
export const maxReactionLength = 32;

/** Null when `emoji` is exactly one emoji, else the exact refusal text. */
export function validateReactionEmoji(emoji: unknown): string | null {
  if (typeof emoji !== 'string' || emoji.length === 0 || emoji.length > maxReactionLength) return reactionTexts.notOneEmoji;
  return singleEmoji.test(emoji) ? null : reactionTexts.notOneEmoji;
}
