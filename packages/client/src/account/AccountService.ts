import type PocketBase from 'pocketbase';
import { ConfabError, toConfabError } from '../errors';
import type { UserRecord } from '../types';
import { normalizeCompleteAccount } from '../validation/account';
import { validateApiKeys } from '../validation/content';
import { messages } from '../validation/messages';
import { completeAccountErrorMessage } from '../validation/serverErrors';

export interface AccountServiceDependencies {
  pb: PocketBase;
  request: <Result>(path: string, init?: { method?: string; body?: unknown }) => Promise<Result>;
  currentUser: () => UserRecord;
  login: (identity: string, password: string) => Promise<UserRecord>;
}

export interface ApiKeysInput {
  openai?: string | undefined;
  gemini?: string | undefined;
}

/**
 * The signed-in user's own account: complete-account for soft-registered users, username and
 * AI-provider keys (docs/PRODUCT.md §4, §5, §7). Every failure rejects with a ConfabError.
 */
export class AccountService {
  constructor(private readonly dependencies: AccountServiceDependencies) {}

  /**
   * POST /api/complete-account with the e-mail trimmed and lower-cased. A failure rejects with a
   * ConfabError whose message is the docs/PRODUCT.md §8 text ('Email: …' or the fallback).
   */
  async completeAccount(input: { email: string; username: string; password: string }): Promise<{ message?: string }> {
    const body = normalizeCompleteAccount({ ...input, confirmPassword: input.password });
    try {
      return (await this.dependencies.request<{ message?: string }>('/api/complete-account', { method: 'POST', body })) ?? {};
    } catch (error) {
      const failure = toConfabError(error);
      if (failure.isAbort) throw failure;
      throw new ConfabError(completeAccountErrorMessage(failure), failure.status, {
        fieldErrors: failure.fieldErrors,
        data: failure.data,
        cause: failure,
      });
    }
  }

  /** Changes the username of the signed-in user; the session's record follows. */
  async updateUsername(username: string): Promise<UserRecord> {
    return this.update({ username: username.trim() });
  }

  /** Saves the non-empty keys (at least one); the server stores them encrypted, never echoes them. */
  async saveApiKeys(keys: ApiKeysInput): Promise<UserRecord> {
    const openai = keys.openai?.trim() ?? '';
    const gemini = keys.gemini?.trim() ?? '';
    const invalid = validateApiKeys({ openaiApiKey: openai, geminiApiKey: gemini });
    if (invalid !== null) throw new ConfabError(invalid, 400);
    const patch: Record<string, string> = {};
    if (openai !== '') patch['openai_api_key'] = openai;
    if (gemini !== '') patch['gemini_api_key'] = gemini;
    return this.update(patch);
  }

  /**
   * /complete-signup (docs/PRODUCT.md §4): names the account (username, display name defaulting to
   * it), then signs in with the temporary password. The update needs the server to accept it for
   * `userId` (the caller's own record when a session exists).
   */
  async completeSignup(input: { userId: string; tempPassword: string; username: string; displayName?: string }): Promise<UserRecord> {
    const username = input.username.trim();
    const displayName = input.displayName?.trim() ?? '';
    // Sign in first (the record id is an identity): only the owner may update the record.
    await this.dependencies.login(input.userId, input.tempPassword);
    try {
      await this.dependencies.pb.collection('users').update<UserRecord>(input.userId, { username, name: displayName === '' ? username : displayName });
    } catch (error) {
      throw toConfabError(error);
    }
    return this.dependencies.login(username, input.tempPassword);
  }

  /** Signs in with the temporary credentials a share-link join answered. */
  loginWithTemporaryPassword(username: string, temporaryPassword: string): Promise<UserRecord> {
    return this.dependencies.login(username, temporaryPassword);
  }

  private async update(patch: Record<string, unknown>): Promise<UserRecord> {
    const { pb, currentUser } = this.dependencies;
    let user: UserRecord;
    try {
      user = currentUser();
    } catch {
      throw new ConfabError(messages.userNotAuthenticated, 401);
    }
    try {
      const record = await pb.collection('users').update<UserRecord>(user.id, patch);
      // Keep the session's record (and so store.user) in step with the change.
      if (pb.authStore.isValid) pb.authStore.save(pb.authStore.token, { ...(pb.authStore.record ?? {}), ...record } as never);
      return record;
    } catch (error) {
      throw toConfabError(error);
    }
  }
}
