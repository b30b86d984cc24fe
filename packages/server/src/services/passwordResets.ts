import { createHash, randomBytes } from 'node:crypto';
import { fieldErrors, validationError, type FieldErrors } from '../errors';
import { passwordResetMail } from '../mail/templates';
import { formatTimestamp, newRecordId } from '../store/ids';
import type { AccountsService } from './accounts';
import type { ServiceContext } from './context';
import { tooManyRequests } from './limits/rateLimits';
import { resetPasswordMinimum, validatePasswordPair } from './userValidation';

const resetTokenLifetimeMs = 60 * 60 * 1000;

export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Password reset by mailed link (PocketBase's request/confirm-password-reset): tokens are 32
 * random bytes stored as sha256, single use, valid 1 hour; a newer request, a reset or any
 * password change ends the older ones.
 */
export class PasswordResetService {
  constructor(
    private readonly context: ServiceContext,
    private readonly accounts: AccountsService,
  ) {}

  private async throwIfExhausted(accountKey: string | undefined, ip: string): Promise<void> {
    const limits = this.context.rateLimits;
    const exhausted =
      (await limits.isExhausted(`attempts:ip:${ip}`, limits.limits.attemptsPerIp)) ||
      (accountKey !== undefined && (await limits.isExhausted(accountKey, limits.limits.resetRequestsPerAccount)));
    if (exhausted) throw tooManyRequests();
  }

  /** Always succeeds silently for unknown addresses: answers must not reveal who has an account. */
  async request(email: string | undefined, ip: string): Promise<void> {
    if (email === undefined || email.trim() === '') throw validationError('An error occurred while validating the submitted data.', { email: fieldErrors.required() });
    const account = email.trim().toLowerCase();
    const accountKey = `reset-request:account:${account}`;
    await this.throwIfExhausted(accountKey, ip);
    const limits = this.context.rateLimits;
    await limits.spend(accountKey, limits.limits.resetRequestsPerAccount);
    await limits.spend(`attempts:ip:${ip}`, limits.limits.attemptsPerIp);
    const user = await this.context.store.users.findByEmail(account);
    if (user === undefined) return;
    const token = randomBytes(32).toString('base64url');
    const now = this.context.config.now();
    const expires = new Date(now.getTime() + resetTokenLifetimeMs);
    await this.context.store.passwordResets.replaceForUser({
      id: newRecordId(),
      user_id: user.id,
      token_hash: hashResetToken(token),
      expires: formatTimestamp(expires),
      used_at: null,
      created: formatTimestamp(now),
    });
    const link = `${this.context.publicUrl()}/reset-password?token=${encodeURIComponent(token)}`;
    const from = `Confab <no-reply@${this.context.config.mailDomain}>`;
    // Queued (mail/queue.ts): a relay that is down delays the mail, the answer is the same. The
    // link dies with its token, so the mail is not tried past it, and a newer request's mail
    // replaces this one if it has not gone yet (the newer request ended this token anyway).
    try {
      await this.context.mailQueue.enqueue(passwordResetMail({ to: user.email, from, username: user.username, link }), {
        kind: 'password_reset',
        group: `password-reset:${user.id}`,
        giveUpAt: expires,
      });
    } catch (error) {
      this.context.logger.error({ error: String(error) }, 'password reset mail could not be queued');
    }
  }

  async confirm(input: { token: string | undefined; password: string | undefined; passwordConfirm: string | undefined }, ip: string): Promise<void> {
    await this.throwIfExhausted(undefined, ip);
    const errors: FieldErrors = {};
    if (input.token === undefined || input.token === '') errors['token'] = fieldErrors.required();
    validatePasswordPair(errors, input.password, input.passwordConfirm, resetPasswordMinimum);
    if (Object.keys(errors).length > 0) throw validationError('An error occurred while validating the submitted data.', errors);
    const stored = await this.context.store.passwordResets.findByHash(hashResetToken(input.token ?? ''));
    const nowText = formatTimestamp(this.context.config.now());
    const usable = stored !== undefined && stored.used_at === null && stored.expires > nowText;
    if (!usable || !(await this.context.store.passwordResets.consume(stored.id, nowText))) {
      const limits = this.context.rateLimits;
      await limits.spend(`attempts:ip:${ip}`, limits.limits.attemptsPerIp);
      throw validationError('Failed to confirm password reset.', { token: fieldErrors.invalidToken() });
    }
    await this.accounts.changePassword(stored.user_id, input.password ?? '');
  }
}
