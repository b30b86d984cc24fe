import { reactionLimits, reactionTexts, type ReactionsAnswer, type ReactionSummary } from '../protocol';
import { validateReactionEmoji } from '../validation/reactions';
import type { FakeChat, FakeMessage, FakeUser } from './fakeBackend';
import { callerId, errorResponse, json } from './fakeHttp';

/*
 * Reactions in the fake backend (docs/CONTRACTS.md, Reactions): PUT and DELETE
 * /api/messages/{id}/reactions/{emoji} for participants, with the shared emoji rule and the cap,
 * answering the summary. Held to the real server by the contract suite (backendContract.ts).
 */

/** One person's reaction on a fake message, oldest first. */
export interface FakeReaction {
  user: string;
  emoji: string;
}

/** The summary the server answers and records carry: emoji in order of first use, users oldest first. */
export function fakeReactionSummary(message: FakeMessage, users: readonly FakeUser[]): ReactionSummary[] {
  if (message.deleted_at !== undefined) return [];
  const byEmoji = new Map<string, ReactionSummary>();
  for (const reaction of message.reactions ?? []) {
    const user = users.find((candidate) => candidate.id === reaction.user);
    let summary = byEmoji.get(reaction.emoji);
    if (summary === undefined) byEmoji.set(reaction.emoji, (summary = { emoji: reaction.emoji, count: 0, users: [] }));
    summary.count += 1;
    summary.users.push({ id: reaction.user, username: user?.username ?? '', name: user?.name ?? '' });
  }
  return [...byEmoji.values()];
}

export function createReactionRoutes(data: { users: FakeUser[]; chats: FakeChat[]; messages: FakeMessage[] }) {
  return (request: Request, url: URL): Response | null => {
    const match = /^\/api\/messages\/([^/]+)\/reactions\/([^/]+)$/.exec(url.pathname);
    if (match === null || (request.method !== 'PUT' && request.method !== 'DELETE')) return null;
    const caller = callerId(request);
    if (caller === null) return errorResponse(401, 'The request requires valid record authorization token.');
    const emoji = decodeURIComponent(match[2] ?? '');
    const problem = validateReactionEmoji(emoji);
    if (problem !== null) return errorResponse(400, problem, { emoji: { code: 'validation_invalid_value', message: problem } });
    const message = data.messages.find((candidate) => candidate.id === match[1] && candidate.deleted_at === undefined);
    const chat = data.chats.find((candidate) => candidate.id === message?.chat && candidate.participants.includes(caller));
    if (message === undefined || chat === undefined) return errorResponse(404, 'Message not found');
    const reactions = message.reactions ?? [];
    const mine = reactions.findIndex((reaction) => reaction.user === caller && reaction.emoji === emoji);
    let changed = false;
    if (request.method === 'PUT' && mine === -1) {
      const distinct = new Set(reactions.map((reaction) => reaction.emoji));
      if (!distinct.has(emoji) && distinct.size >= reactionLimits.distinctEmojiPerMessage) {
        return errorResponse(400, reactionTexts.tooMany, { emoji: { code: 'validation_invalid_value', message: reactionTexts.tooMany } });
      }
      message.reactions = [...reactions, { user: caller, emoji }];
      changed = true;
    } else if (request.method === 'DELETE' && mine !== -1) {
      message.reactions = reactions.filter((_, index) => index !== mine);
      changed = true;
    }
    if (changed) {
      message.reactions_version = (message.reactions_version ?? 0) + 1;
      message.updated = new Date().toISOString().replace('T', ' ');
    }
    const answer: ReactionsAnswer = {
      chat_id: message.chat,
      message_id: message.id,
      reactions: fakeReactionSummary(message, data.users),
      version: message.reactions_version ?? 0,
      updated: message.updated ?? message.created,
    };
    return json(200, answer);
  };
}
