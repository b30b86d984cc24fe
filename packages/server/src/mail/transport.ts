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
