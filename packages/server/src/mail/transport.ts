/** An outgoing mail. `html` is optional; `text` is always sent. */
export interface OutgoingMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html?: string;
  /** Where replies go, e.g. the chat's own inbox address, so answers land back in the chat. */
  replyTo?: string;
  /** The Message-ID (with its angle brackets) this mail answers, for threading (In-Reply-To and References). */
  inReplyTo?: string;
  /**
   * An https or http URL that unsubscribes the recipient: sent as List-Unsubscribe, with
   * List-Unsubscribe-Post for one-click unsubscribing (RFC 8058), so mail programs offer a button.
   */
  unsubscribeUrl?: string;
  /**
   * The Message-ID (with its angle brackets). The mail queue gives each mail one, the same on
   * every attempt, so a mail sent twice (the relay took it but its answer was lost) is one message
   * to whoever deduplicates by it. Without it the transport makes one up.
   */
  messageId?: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}

/** Escapes a user-supplied value for an HTML mail body. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
