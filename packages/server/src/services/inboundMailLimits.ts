import ipaddr from 'ipaddr.js';
import type { ServiceContext } from './context';
import { UploadQuota } from './files/uploadQuota';
import type { InboundRecipient } from './mailInbox';

/**
 * What each limit tells the sending server. Every refusal is temporary (4xx): a real mail server
 * tries again later, so nothing a legitimate sender wrote is lost.
 */
export const inboundLimitReplies = {
  address: { code: 451, text: 'Too many mails from your address this hour; try again later' },
  recipient: { code: 451, text: 'Too many mails to this address this hour; try again later' },
  // RFC 5321 4.5.3.1.10: past a recipient limit the answer is 452, and the client sends the rest later.
  recipients: (maximum: number) => ({ code: 452, text: `Too many recipients: at most ${maximum} per mail; send to the others in another mail` }),
  attachments: { code: 452, text: 'This chat has used its hourly allowance for attachments; try again later' },
} as const;

/** The count a recipient's limits go by: its chat, or the person whose inbox it is. */
export function recipientKey(recipient: InboundRecipient): string {
  return recipient.kind === 'chat' ? `chat:${recipient.chat.id}` : `inbox:${recipient.user.id}`;
}

/** The connecting address a limit counts: the IPv4 address, or the /64 an IPv6 host can use whole. */
export function connectingAddressKey(remoteAddress: string): string {
  if (!ipaddr.isValid(remoteAddress)) return remoteAddress;
  const address = ipaddr.process(remoteAddress);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}

/**
 * The flood limits of inbound mail (docs/SECURITY.md M7), all keyed on what a sender cannot pick
 * freely: the connecting address, the recipient, and the receiving chat's attachment allowance.
 * The sender a mail names is the attacker's choice and counts for nothing. Shared by every
 * instance through Redis when REDIS_URL is set, like every limit.
 */
export class InboundMailLimits {
  private readonly uploads: UploadQuota;

  constructor(private readonly context: ServiceContext) {
    this.uploads = new UploadQuota(context);
  }

  get recipientsPerMail(): number {
    return this.context.config.inboundRecipientsPerMail;
  }

  /** Counts one mail from `remoteAddress`; false past the hourly allowance. */
  async allowAddress(remoteAddress: string): Promise<boolean> {
    const limits = this.context.rateLimits;
    return limits.allow(`inbound-mail:address:${connectingAddressKey(remoteAddress)}`, limits.limits.inboundMailsPerAddress);
  }

  /** Counts one mail to `recipient`; false past its hourly allowance. */
  async allowRecipient(recipient: InboundRecipient): Promise<boolean> {
    const limits = this.context.rateLimits;
    return limits.allow(`inbound-mail:recipient:${recipientKey(recipient)}`, limits.limits.inboundMailsPerRecipient);
  }

  /**
   * Spends `bytes` of attachments on every recipient's upload allowance, or refuses the whole mail
   * (false) when one of them has none left: one SMTP answer covers every recipient, and a deferred
   * mail comes again whole, so nobody gets it twice.
   */
  async spendAttachments(recipients: readonly InboundRecipient[], bytes: number): Promise<boolean> {
    if (bytes === 0) return true;
    for (const recipient of recipients) if (await this.uploads.mailAllowanceUsedUp(recipientKey(recipient))) return false;
    for (const recipient of recipients) await this.uploads.spendMail(recipientKey(recipient), bytes);
    return true;
  }
}
