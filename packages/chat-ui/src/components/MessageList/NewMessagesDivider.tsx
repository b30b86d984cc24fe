/** The line above the first message that was unread when the chat opened. */
export function NewMessagesDivider() {
  return (
    <div className="cf-new-messages" role="separator" aria-label="New messages">
      <span className="cf-new-messages__label" aria-hidden="true">
        New messages
      </span>
    </div>
  );
}
