import { useState } from 'react';
import type { ClientMessage } from '../../internal/chatClient';
import { LazyReactionPicker, LazyMessagePart } from '../../internal/lazyParts';
import { useConfabClient, useConfabStore } from '../../provider/hooks';
import { ReactionChips } from './ReactionChips';

export interface MessageReactionsProps {
  message: ClientMessage;
  /** The "Add reaction" picker is open (the message's action bar opened it). */
  pickerOpen: boolean;
  /** The picker closed: picked or given up. */
  onPickerClose: () => void;
}

export const reactionFailedText = 'Your reaction could not be saved. Please try again.';

/**
 * A message's reactions for the signed-in person: the chips toggle their own reaction and the
 * picker adds one, through client.messages.react / unreact (shown at once, undone on failure,
 * with the reason in an alert). Needs a ConfabProvider.
 */
export function MessageReactions({ message, pickerOpen, onPickerClose }: MessageReactionsProps) {
  const client = useConfabClient();
  const viewerId = useConfabStore((state) => state.user?.id ?? null);
  const [error, setError] = useState<string | null>(null);
  const change = (emoji: string, on: boolean) => {
    setError(null);
    const call = on ? client.messages.react(message.message_id, emoji) : client.messages.unreact(message.message_id, emoji);
    call.catch((failure: unknown) => setError(failure instanceof Error && failure.message !== '' ? failure.message : reactionFailedText));
  };
  return (
    <>
      <ReactionChips reactions={message.reactions ?? []} viewerId={viewerId} onToggle={change} />
      {pickerOpen ? (
        <LazyMessagePart className="cf-reaction-picker" minHeight={200} loadingLabel="Loading..." failedLabel="This could not be loaded.">
          <LazyReactionPicker.Component onPick={(emoji) => change(emoji, true)} onClose={onPickerClose} />
        </LazyMessagePart>
      ) : null}
      {error !== null ? (
        <p className="cf-message__status cf-message__status--failed" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
