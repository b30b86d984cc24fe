import { join } from 'node:path';
import { OutboxTransport, type MailLogger } from './outboxTransport';
import { SmtpTransport } from './smtpTransport';
import type { MailTransport } from './transport';

export function createMailTransport(options: {
  smtpUrl: string | undefined;
  dataDir: string;
  logger: MailLogger;
  now: () => Date;
}): MailTransport {
  if (options.smtpUrl !== undefined) return new SmtpTransport(options.smtpUrl);
  return new OutboxTransport(join(options.dataDir, 'outbox'), options.logger, options.now);
}
