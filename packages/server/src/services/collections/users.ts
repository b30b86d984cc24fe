import { fieldErrors, type FieldErrors } from '../../errors';
import { anyOf, columnEquals, columnIn, never, userSharesChatWith } from '../../store/conditions';
import { usersSchema } from '../../store/filterAllowLists';
import { aiTokensUsed } from '../../agents/ai/usage';
import { isUniqueViolation } from '../../store/database';
import { formatTimestamp } from '../../store/ids';
import type { UserRow } from '../../store/repositories/users';
import type { AccountsService } from '../accounts';
import type { RequestAuth, ServiceContext } from '../context';
import { hasField, readBoolean, readString, type Body } from '../input';
import { newUserRow } from '../newUserRow';
import { verifyPassword } from '../passwords';
import { recordErrors, throwIfErrors } from '../recordErrors';
import { tooManyRequests } from '../limits/rateLimits';
import { cleanDisplayName, registerPasswordMinimum, validateEmail, validatePasswordPair, validateUsername } from '../userValidation';
import { agentTypes } from './agentTypes';
import { booleanOf, collectionIds, type RecordCollection, type RecordJson } from './types';

export { agentTypes };

/** Rules of the users collection (docs/SECURITY.md Z1, A8–A10): see `viewCondition`, `create`, `update`, `delete`. */
export class UsersCollection implements RecordCollection {
  readonly name = 'users';
  readonly id = collectionIds.users;
  readonly table = 'users' as const;
  readonly schema = usersSchema;
  readonly relations = { created_by: { target: 'users' }, dev_room_id: { target: 'chats' } };

  constructor(
    private readonly context: ServiceContext,
    private readonly accounts: AccountsService,
  ) {}

  /** Yourself, agents, and people you share a chat with. Guests see nobody. */
  viewCondition(auth: RequestAuth) {
    if (auth.user === undefined) return never;
    return anyOf([
      columnEquals('users.id', auth.user.id),
      columnIn('users.type', agentTypes),
      userSharesChatWith('users.id', auth.user.id),
    ]);
  }

  async serialize(rows: readonly unknown[], auth: RequestAuth): Promise<RecordJson[]> {
    return Promise.all(
      (rows as UserRow[]).map(async (row) => {
        const json = this.toJson(row, auth);
        // The owner's own record carries their AI token total (My Profile).
        return auth.user?.id === row.id ? { ...json, ai_tokens_used: await aiTokensUsed(this.context.store.database, row.id) } : json;
      }),
    );
  }

  private toJson(row: UserRow, auth: RequestAuth): RecordJson {
    const base: RecordJson = {
      id: row.id,
      collectionId: this.id,
      collectionName: this.name,
      username: row.username,
      name: row.name,
      type: row.type,
      created: row.created,
      updated: row.updated,
    };
    const isAgent = (agentTypes as readonly string[]).includes(row.type);
    if (isAgent) {
      // Who made an agent, and its dev room (a chat of the two), are its owner's to know
      // (docs/SECURITY.md G14); everyone else gets the fields empty.
      const owner = auth.user !== undefined && row.created_by === auth.user.id;
      Object.assign(base, {
        description: row.description,
        created_by: owner ? row.created_by : '',
        site_wide_available: row.site_wide_available === null ? true : booleanOf(row.site_wide_available),
        dev_room_id: owner ? (row.dev_room_id ?? '') : '',
      });
    }
    if (auth.user?.id !== row.id) return base;
    return {
      ...base,
      email: row.email,
      emailVisibility: booleanOf(row.email_visibility),
      verified: booleanOf(row.verified),
      description: row.description,
      created_by: row.created_by ?? '',
      site_wide_available: row.site_wide_available === null ? true : booleanOf(row.site_wide_available),
      dev_room_id: row.dev_room_id ?? '',
      // Provider keys never leave the server: only whether each is set and a masked hint.
      openai_api_key_set: row.openai_api_key_encrypted !== '',
      openai_api_key_hint: this.keyHint(row.id, row.openai_api_key_encrypted),
      gemini_api_key_set: row.gemini_api_key_encrypted !== '',
      gemini_api_key_hint: this.keyHint(row.id, row.gemini_api_key_encrypted),
      soft_registered: booleanOf(row.soft_registered),
      signup_completed: booleanOf(row.signup_completed),
      is_admin: booleanOf(row.is_admin),
    };
  }

  /** `••••` plus the last 4 characters (only for keys long enough that this reveals little). */
  private keyHint(userId: string, stored: string): string {
    if (stored === '') return '';
    try {
      const plain = this.context.providerKeyCipher.decrypt(stored, userId);
      return plain.length >= 12 ? `••••${plain.slice(-4)}` : '••••';
    } catch {
      return '••••';
    }
  }

  /** AES-256-GCM with the user id as associated data: a ciphertext copied to another row fails. */
  private sealKey(userId: string, plain: string): string {
    return plain.trim() === '' ? '' : this.context.providerKeyCipher.encrypt(plain.trim(), userId);
  }

  /**
   * Registration of a person. Server-owned fields (`soft_registered`, `signup_completed`,
   * `is_admin`, `verified`) are never taken from the client, and agents are never created here:
   * they have their own endpoints and no password. Each client address may register
   * `signupsPerIpPerHour` accounts an hour. The first account on a server becomes its admin.
   */
  async create(auth: RequestAuth, body: Body) {
    const users = this.context.store.users;
    const limits = this.context.rateLimits;
    const signupKey = `signups:ip:${auth.ip}`;
    if (await limits.isExhausted(signupKey, limits.limits.signupsPerIp)) {
      throw tooManyRequests('Too many accounts were created from your address. Please try again later.');
    }
    const type = readString(body, 'type') ?? 'user';
    const username = readString(body, 'username')?.trim();
    const email = readString(body, 'email')?.trim().toLowerCase();
    const password = readString(body, 'password');
    const errors: FieldErrors = {};
    if (type !== 'user') errors['type'] = fieldErrors.invalidValue();
    await validateUsername(errors, users, username);
    await validateEmail(errors, users, email, true);
    validatePasswordPair(errors, password, readString(body, 'passwordConfirm'), registerPasswordMinimum);
    throwIfErrors(errors, recordErrors.createFailed);
    const now = formatTimestamp(this.context.config.now());
    const row = await newUserRow({
      username: username ?? '',
      name: cleanDisplayName(readString(body, 'name') ?? ''),
      email: email ?? '',
      password: password ?? '',
      emailVisibility: readBoolean(body, 'emailVisibility') === true,
      now,
    });
    try {
      await users.insert(row);
    } catch (error) {
      // Two registrations racing for one name: the unique index decides, the loser gets a 400.
      if (isUniqueViolation(error)) {
        throw recordErrors.createFailed({ username: fieldErrors.identityTaken('username'), email: fieldErrors.identityTaken('email') });
      }
      throw error;
    }
    await limits.spend(signupKey, limits.limits.signupsPerIp);
    if (await users.claimFirstAdmin(row.id, now)) row.is_admin = 1;
    return { id: row.id, viewAs: { user: row, ip: auth.ip } };
  }

  /** Only the owner, only the docs/PRODUCT.md §7 users-update fields the user owns (plus a password change with oldPassword). */
  async update(auth: RequestAuth, id: string, body: Body): Promise<void> {
    const row = auth.user?.id === id ? await this.context.store.users.findById(id) : undefined;
    if (row === undefined) throw recordErrors.notFound();
    const errors: FieldErrors = {};
    const changes: Record<string, string | number> = {};
    if (hasField(body, 'username')) {
      const username = readString(body, 'username')?.trim();
      await validateUsername(errors, this.context.store.users, username, { exceptId: id, current: row.username });
      changes['username'] = username ?? '';
    }
    if (hasField(body, 'name')) changes['name'] = cleanDisplayName(readString(body, 'name') ?? '');
    // signup_completed, soft_registered, is_admin and type are the server's: a client value is ignored.
    if (hasField(body, 'site_wide_available')) {
      changes['site_wide_available'] = readBoolean(body, 'site_wide_available') === false ? 0 : 1;
    }
    // `openai_api_key` / `gemini_api_key` (CONTRACTS); the `*_encrypted` names of docs/PRODUCT.md
    // §3 are accepted too.
    for (const provider of ['openai', 'gemini'] as const) {
      for (const field of [`${provider}_api_key`, `${provider}_api_key_encrypted`]) {
        if (hasField(body, field)) changes[`${provider}_api_key_encrypted`] = this.sealKey(id, readString(body, field) ?? '');
      }
    }
    const password = readString(body, 'password');
    if (password !== undefined) {
      validatePasswordPair(errors, password, readString(body, 'passwordConfirm'), registerPasswordMinimum);
      const oldPassword = readString(body, 'oldPassword') ?? '';
      if (!(await verifyPassword(row.password_hash, oldPassword))) errors['oldPassword'] = fieldErrors.invalidValue();
    }
    throwIfErrors(errors, recordErrors.updateFailed);
    if (Object.keys(changes).length > 0) {
      try {
        await this.context.store.users.update(id, { ...changes, updated: formatTimestamp(this.context.config.now()) });
      } catch (error) {
        if (isUniqueViolation(error)) throw recordErrors.updateFailed({ username: fieldErrors.identityTaken('username') });
        throw error;
      }
    }
    if (password !== undefined) await this.accounts.changePassword(id, password);
  }

  async delete(auth: RequestAuth, id: string): Promise<void> {
    if (auth.user?.id !== id) throw recordErrors.notFound();
    await this.context.store.users.delete(id);
    await this.accounts.endSessions(id);
  }
}
