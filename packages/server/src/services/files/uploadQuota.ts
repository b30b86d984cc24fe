import type { ServiceContext } from '../context';
import { tooManyRequests } from '../limits/rateLimits';

/**
 * How much one user may upload per hour (config uploadMegabytesPerUserPerHour). Checked before a
 * byte of an upload is read and spent once a file is stored, so one upload may end past the
 * allowance; the next is refused with 429 until the hour is over. Shared by every instance
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
}
