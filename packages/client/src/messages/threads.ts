import type PocketBase from 'pocketbase';
import { constants } from '../constants';
import { toConfabError } from '../errors';
import type { ConfabStore } from '../store/createConfabStore';
import type { ClientMessage, MessageRecord } from '../types';
import { messageFromRecord } from './normalize';

const messagesCollection = 'messages';

/** The message shown when a thread cannot be loaded. */
export const threadLoadFailedText = 'Failed to load the replies.';

/**
 * Threads (docs/CONTRACTS.md, Replies): the thread open beside the chat (store.thread), loaded
 * through the record API's `reply_to` filter. Replies arriving live are ordinary messages of the
 * chat (store.messages); only the replies older than the loaded pages come from here.
 */
export class Threads {
  private openedAt = 0;

  constructor(private readonly dependencies: { pb: PocketBase; store: ConfabStore }) {}

  /** The thread of `messageId` (a reply opens its original's thread): its original and every reply. */
  async open(chatId: string, messageId: string): Promise<void> {
    const { store, pb } = this.dependencies;
    const held = store.getState().messages.find((message) => message.message_id === messageId);
    const originalId = held?.reply_to ?? messageId;
    const original = held?.reply_to === undefined ? (held ?? null) : (store.getState().messages.find((message) => message.message_id === originalId) ?? null);
    const ticket = ++this.openedAt;
    store.setState({ thread: { chat_id: chatId, original_id: originalId, original, replies: [], loading: true, error: null } });
    try {
      const [loadedOriginal, records] = await Promise.all([
        original === null ? pb.collection(messagesCollection).getOne<MessageRecord>(originalId, { expand: 'author' }) : null,
        pb.collection(messagesCollection).getFullList<MessageRecord>({
          filter: pb.filter('chat = {:chatId} && reply_to = {:originalId}', { chatId, originalId }),
          sort: 'seq',
          expand: 'author',
          batch: constants.list.fullListBatchSize,
        }),
      ]);
      if (ticket !== this.openedAt) return;
      store.setState((state) => ({
        thread: state.thread === null ? null : {
          ...state.thread,
          original: state.thread.original ?? (loadedOriginal === null ? null : messageFromRecord(loadedOriginal)),
          replies: records.map(messageFromRecord),
          loading: false,
        },
      }));
    } catch (error) {
      if (ticket !== this.openedAt) return;
      const problem = toConfabError(error);
      store.setState((state) => ({ thread: state.thread === null ? null : { ...state.thread, loading: false, error: problem.status === 404 ? 'This message is no longer available.' : threadLoadFailedText } }));
    }
  }

  close(): void {
    this.openedAt += 1;
    this.dependencies.store.setState({ thread: null });
  }
}

/**
 * The replies of a thread as they stand: those loaded when it opened, merged with the chat's
 * messages that reply to it (live, pending and failed ones included), by id, in order.
 */
export function threadReplies(loaded: readonly ClientMessage[], messages: readonly ClientMessage[], originalId: string): ClientMessage[] {
  const replying = messages.filter((message) => message.reply_to === originalId);
  const live = replying.filter((message) => message.deleted_at === undefined);
  // The chat's copy wins, a deleted one included: the thread's loaded copy may predate the deletion.
  const heldIds = new Set(replying.map((message) => message.message_id));
  const older = loaded.filter((message) => !heldIds.has(message.message_id) && message.deleted_at === undefined);
  const confirmed = [...older, ...live.filter((message) => message.seq !== null)].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  return [...confirmed, ...live.filter((message) => message.seq === null)];
}
