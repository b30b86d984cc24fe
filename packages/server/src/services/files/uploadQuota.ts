import { ConfabServerError } from '../../errors';
import type { ServiceContext } from '../context';

const hourMs = 60 * 60 * 1000;

/**
 * How much one user may upload per hour (config uploadMegabytesPerUserPerHour). Checked before a
 * byte of an upload is read and spent once a file is stored, so one upload may end past the
 * allowance; the next is refused with 429 until the hour is over. In process, like the login
 * limits.
 */
export class UploadQuota {
  constructor(private readonly context: ServiceContext) {}

  private limit() {
    return { maximum: this.context.config.uploadMegabytesPerUserPerHour * 1024 * 1024, windowMs: hourMs };
  }

  private key(userId: string): string {
    return `upload-bytes:user:${userId}`;
  }

  /** Throws 429 when the user has used up this hour's allowance. */
  check(userId: string): void {
    if (this.context.rateLimiter.isLimited(this.key(userId), this.limit())) {
      const megabytes = this.context.config.uploadMegabytesPerUserPerHour;
      throw new ConfabServerError('tooManyRequests', `Upload limit reached: at most ${megabytes} MB per hour. Please try again later.`);
    }
  }

  spend(userId: string, bytes: number): void {
    this.context.rateLimiter.record(this.key(userId), this.limit(), bytes);
  }
}
