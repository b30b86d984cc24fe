import type { MailTransport, OutgoingMail } from './transport';

/**
 * The mail transport with a count of the mails handed to it and not yet sent (accepted by the
 * relay, or written to the outbox folder): the mail queue's depth on /metrics until a durable
 * outgoing queue gives its own (ServerMetrics.measureMailQueueWith).
 */
export class CountingTransport implements MailTransport {
  private inFlight = 0;

  constructor(private readonly inner: MailTransport) {}

  get pending(): number {
    return this.inFlight;
  }

  async send(mail: OutgoingMail): Promise<void> {
    this.inFlight += 1;
    try {
      await this.inner.send(mail);
    } finally {
      this.inFlight -= 1;
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
