import { ConfabServerError, fieldErrors, validationError, type FieldErrors } from '../errors';
import { userChannel, type RevokeEvent } from '../realtime/channels';
import { formatTimestamp, randomAlphanumeric } from '../store/ids';
import type { UserRow } from '../store/repositories/users';
import { agentTypes } from './collections/agentTypes';
import { collectionIds } from './collections/types';
import type { RequestAuth, ServiceContext } from './context';
import { tooManyRequests } from './limits/rateLimits';
import { hashPassword, spendDecoyVerification, verifyPassword } from './passwords';
import { authTokenLifetimeSeconds, fileTokenLifetimeSeconds, peekClaims, signAuthToken, signingKey, verifyAuthToken, verifyFileToken } from './tokens';

/** Agents authenticate with API keys on their own endpoints, never with a password. */
function signsInWithPassword(user: UserRow): boolean {
  return !(agentTypes as readonly string[]).includes(user.type);
}

/** Accounts: sign-in with its limits, auth and file tokens, password changes and session ends. */
export class AccountsService {
  constructor(private readonly context: ServiceContext) {}

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

  /**
   * Password sign-in. Failures count per resolved account, so a username, its e-mail and its
   * record id share one allowance, and per client address; past either the answer is 429.
   */
  async authWithPassword(identity: string | undefined, password: string | undefined, ip: string): Promise<UserRow> {
    const errors: FieldErrors = {};
    if (identity === undefined || identity.trim() === '') errors['identity'] = fieldErrors.required();
    if (password === undefined || password === '') errors['password'] = fieldErrors.required();
    if (identity === undefined || password === undefined || Object.keys(errors).length > 0) {
      throw validationError('Failed to authenticate.', errors);
    }
    const found = await this.context.store.users.findByIdentity(identity);
    const user = found !== undefined && signsInWithPassword(found) ? found : undefined;
    const limits = this.context.rateLimits;
    const accountKey = `login:account:${user?.id ?? `unknown:${identity.trim().toLowerCase()}`}`;
    const ipKey = `attempts:ip:${ip}`;
    if (
      (await limits.isExhausted(accountKey, limits.limits.loginFailuresPerAccount)) ||
      (await limits.isExhausted(ipKey, limits.limits.attemptsPerIp))
    ) {
      throw tooManyRequests();
    }
    const valid = user === undefined ? (await spendDecoyVerification(password), false) : await verifyPassword(user.password_hash, password);
    if (user === undefined || !valid) {
      await limits.spend(accountKey, limits.limits.loginFailuresPerAccount);
      await limits.spend(ipKey, limits.limits.attemptsPerIp);
      throw validationError('Failed to authenticate.', {});
    }
    await limits.forget(accountKey, limits.limits.loginFailuresPerAccount);
    return user;
  }

  /**
   * Sets a new password and rotates token_key, so every earlier token stops working; ends every
   * outstanding reset link and closes the user's open sockets on every instance.
   */
  async changePassword(userId: string, password: string): Promise<void> {
    const now = formatTimestamp(this.context.config.now());
    await this.context.store.users.update(userId, {
      password_hash: await hashPassword(password),
      token_key: randomAlphanumeric(50),
      updated: now,
    });
    await this.context.store.passwordResets.revokeForUser(userId, now);
    await this.endSessions(userId);
  }

  /** Closes the user's sockets on every instance (their tokens, or an agent's key, no longer work). */
  async endSessions(userId: string): Promise<void> {
    const event: RevokeEvent = { kind: 'revoke' };
    await this.context.bus.publish(userChannel(userId), event);
  }

  /** The account with this id, if it still exists (a socket's user may be deleted while connected). */
  async findUser(userId: string): Promise<UserRow | undefined> {
    return this.context.store.users.findById(userId);
  }

  /** A refresh needs a valid, current token. */
  requireUser(auth: RequestAuth): UserRow {
    if (auth.user === undefined) throw new ConfabServerError('unauthorized', 'The request requires valid record authorization token.');
    return auth.user;
  }
}
