import { createHash, randomBytes } from 'node:crypto';
import { ConfabServerError, fieldErrors, validationError, type FieldErrors } from '../errors';
import { formatTimestamp, newRecordId, randomAlphanumeric } from '../store/ids';
import type { UserRow } from '../store/repositories/users';
import { passwordResetMail } from '../mail/templates';
import { collectionIds } from './collections/types';
import type { ChatEvents } from './chatEvents';
import type { RequestAuth, ServiceContext } from './context';
import { hashPassword, spendDecoyVerification, verifyPassword } from './passwords';
import { attemptLimits } from './rateLimiter';
import { authTokenLifetimeSeconds, fileTokenLifetimeSeconds, peekClaims, signAuthToken, signingKey, verifyAuthToken, verifyFileToken } from './tokens';
import { resetPasswordMinimum, validatePasswordPair } from './userValidation';

const resetTokenLifetimeMs = 60 * 60 * 1000;

export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Accounts: authentication, tokens, password reset, with per-account and per-IP limits. */
export class AccountsService {
  constructor(
    private readonly context: ServiceContext,
    private readonly chatEvents: ChatEvents,
  ) {}

  private nowSeconds(): number {
    return Math.floor(this.context.config.now().getTime() / 1000);
  }

  issueToken(user: UserRow): string {
    const claims = {
      id: user.id,
      collectionId: collectionIds.users,
      type: 'auth' as const,
      refreshable: true,
      exp: this.nowSeconds() + authTokenLifetimeSeconds,
    };
    return signAuthToken(claims, signingKey(this.context.config.secret, user.token_key));
  }

  /** A 180-second token for file links the browser opens itself (audio, downloads, the live site). */
  issueFileToken(user: UserRow): string {
    const claims = { id: user.id, collectionId: collectionIds.users, type: 'file' as const, exp: this.nowSeconds() + fileTokenLifetimeSeconds };
    return signAuthToken(claims, signingKey(this.context.config.secret, user.token_key));
  }

  /** The user of a valid file token, else undefined. */
  async authenticateFileToken(token: string): Promise<UserRow | undefined> {
    const claims = peekClaims(token);
    if (claims === undefined || typeof claims.id !== 'string' || claims.collectionId !== collectionIds.users) return undefined;
    const user = await this.context.store.users.findById(claims.id);
    if (user === undefined) return undefined;
    return verifyFileToken(token, signingKey(this.context.config.secret, user.token_key), this.nowSeconds()) === undefined ? undefined : user;
  }

  /** The user a token belongs to, or undefined for any invalid, expired or revoked token. */
  async authenticate(token: string): Promise<UserRow | undefined> {
    const claims = peekClaims(token);
    if (claims === undefined || typeof claims.id !== 'string' || claims.collectionId !== collectionIds.users) return undefined;
    const user = await this.context.store.users.findById(claims.id);
    if (user === undefined) return undefined;
    const verified = verifyAuthToken(token, signingKey(this.context.config.secret, user.token_key), this.nowSeconds());
    return verified === undefined ? undefined : user;
  }

  private throwIfLimited(scope: string, account: string, ip: string): void {
    const limiter = this.context.rateLimiter;
    if (
      limiter.isLimited(`${scope}:pair:${account}:${ip}`, attemptLimits.perAccountAndIp) ||
      limiter.isLimited(`${scope}:ip:${ip}`, attemptLimits.perIp)
    ) {
      throw new ConfabServerError('tooManyRequests');
    }
  }

  private recordAttempt(scope: string, account: string, ip: string): void {
    this.context.rateLimiter.record(`${scope}:pair:${account}:${ip}`, attemptLimits.perAccountAndIp);
    this.context.rateLimiter.record(`${scope}:ip:${ip}`, attemptLimits.perIp);
  }

  async authWithPassword(identity: string | undefined, password: string | undefined, ip: string): Promise<UserRow> {
    const errors: FieldErrors = {};
    if (identity === undefined || identity.trim() === '') errors['identity'] = fieldErrors.required();
    if (password === undefined || password === '') errors['password'] = fieldErrors.required();
    if (identity === undefined || password === undefined || Object.keys(errors).length > 0) {
      throw validationError('Failed to authenticate.', errors);
    }
    const account = identity.trim().toLowerCase();
    this.throwIfLimited('login', account, ip);
    const user = await this.context.store.users.findByIdentity(account);
    const valid = user === undefined ? (await spendDecoyVerification(password), false) : await verifyPassword(user.password_hash, password);
    if (user === undefined || !valid) {
      this.recordAttempt('login', account, ip);
      throw validationError('Failed to authenticate.', {});
    }
    this.context.rateLimiter.clear(`login:pair:${account}:${ip}`);
    return user;
  }

  /**
   * Sets a new password and rotates token_key, so every earlier token stops working, and closes
   * the user's open sockets on every instance.
   */
  async changePassword(userId: string, password: string): Promise<void> {
    await this.context.store.users.update(userId, {
      password_hash: await hashPassword(password),
      token_key: randomAlphanumeric(50),
      updated: formatTimestamp(this.context.config.now()),
    });
    await this.endSessions(userId);
  }

  /** Closes the user's sockets on every instance (their tokens no longer work). */
  async endSessions(userId: string): Promise<void> {
    await this.chatEvents.revoked(userId);
  }

  /** Always succeeds silently for unknown addresses: answers must not reveal who has an account. */
  async requestPasswordReset(email: string | undefined, ip: string): Promise<void> {
    if (email === undefined || email.trim() === '') throw validationError('An error occurred while validating the submitted data.', { email: fieldErrors.required() });
    const account = email.trim().toLowerCase();
    this.throwIfLimited('reset-request', account, ip);
    this.recordAttempt('reset-request', account, ip);
    const user = await this.context.store.users.findByEmail(account);
    if (user === undefined) return;
    const token = randomBytes(32).toString('base64url');
    const now = this.context.config.now();
    await this.context.store.passwordResets.replaceForUser({
      id: newRecordId(),
      user_id: user.id,
      token_hash: hashResetToken(token),
      expires: formatTimestamp(new Date(now.getTime() + resetTokenLifetimeMs)),
      used_at: null,
      created: formatTimestamp(now),
    });
    const link = `${this.context.publicUrl()}/reset-password?token=${encodeURIComponent(token)}`;
    const from = `Confab <no-reply@${this.context.config.mailDomain}>`;
    try {
      await this.context.mail.send(passwordResetMail({ to: user.email, from, username: user.username, link }));
    } catch (error) {
      this.context.logger.error({ error: String(error) }, 'password reset mail failed');
    }
  }

  async confirmPasswordReset(
    input: { token: string | undefined; password: string | undefined; passwordConfirm: string | undefined },
    ip: string,
  ): Promise<void> {
    this.throwIfLimited('reset-confirm', 'any', ip);
    const errors: FieldErrors = {};
    if (input.token === undefined || input.token === '') errors['token'] = fieldErrors.required();
    validatePasswordPair(errors, input.password, input.passwordConfirm, resetPasswordMinimum);
    if (Object.keys(errors).length > 0) throw validationError('An error occurred while validating the submitted data.', errors);
    const stored = await this.context.store.passwordResets.findByHash(hashResetToken(input.token ?? ''));
    const now = this.context.config.now();
    const nowText = formatTimestamp(now);
    const usable = stored !== undefined && stored.used_at === null && stored.expires > nowText;
    if (!usable || !(await this.context.store.passwordResets.consume(stored.id, nowText))) {
      this.recordAttempt('reset-confirm', 'any', ip);
      throw validationError('Failed to confirm password reset.', { token: fieldErrors.invalidToken() });
    }
    await this.changePassword(stored.user_id, input.password ?? '');
  }

  /** A refresh needs a valid, current token. */
  requireUser(auth: RequestAuth): UserRow {
    if (auth.user === undefined) throw new ConfabServerError('unauthorized', 'The request requires valid record authorization token.');
    return auth.user;
  }
}
