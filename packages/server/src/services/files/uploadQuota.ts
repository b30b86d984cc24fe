import type { ServiceContext } from '../context';
import { tooManyRequests } from '../limits/rateLimits';

/**
 * How much one user may upload per hour (config uploadMegabytesPerUserPerHour). Checked before a
 * byte of an upload is read; every byte received is spent, whether the file is stored or refused
 * (the upload parser meters the body), so one upload may end past the allowance; the next is
 * refused with 429 until the hour is over. Shared by every instance
 * through Redis when REDIS_URL is set.
 */
export class UploadQuota {
  constructor(private readonly context: ServiceContext) {}

  private key(userId: string): string {
    return `upload-bytes:user:${userId}`;
  }

  /** Throws 429 when the user has used up this hour's allowance. */
  async check(userId: string): Promise<void> {
    const limits = this.context.rateLimits;
    if (await limits.isExhausted(this.key(userId), limits.limits.uploadBytesPerUser)) {
      const megabytes = this.context.config.uploadMegabytesPerUserPerHour;
      throw tooManyRequests(`Upload limit reached: at most ${megabytes} MB per hour. Please try again later.`);
    }
  }

  async spend(userId: string, bytes: number): Promise<void> {
    const limits = this.context.rateLimits;
    await limits.spend(this.key(userId), limits.limits.uploadBytesPerUser, bytes);
  }

  // Mail attachments spend an allowance of the same size held by the receiving chat or inbox
  // (`recipient`, e.g. `chat:<id>`), never a person's: a stranger's mail cannot use up a
  // participant's uploads, and a chat receives by mail at most what one person may upload in an
  // hour. Checked before, spent after, as uploads are (docs/SECURITY.md M7).

  private mailKey(recipient: string): string {
    return `upload-bytes:mail:${recipient}`;
  }

  async mailAllowanceUsedUp(recipient: string): Promise<boolean> {
    const limits = this.context.rateLimits;
    return limits.isExhausted(this.mailKey(recipient), limits.limits.uploadBytesPerUser);
  }

  async spendMail(recipient: string, bytes: number): Promise<void> {
    const limits = this.context.rateLimits;
    await limits.spend(this.mailKey(recipient), limits.limits.uploadBytesPerUser, bytes);
  }
}
