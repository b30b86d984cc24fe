import { newRecordId, randomAlphanumeric } from '../store/ids';
import type { UserRow } from '../store/repositories/users';
import { hashPassword } from './passwords';

/** What differs between the accounts the server creates: people, temporary people, agents. */
export interface NewUser {
  username: string;
  name: string;
  email: string;
  /** Hashed with argon2id. Agents get a random one nobody knows: they never sign in with a password. */
  password: string;
  type?: UserRow['type'];
  description?: string;
  createdBy?: string | null;
  siteWideAvailable?: boolean | null;
  apiKeyHash?: string | null;
  emailVisibility?: boolean;
  softRegistered?: boolean;
  signupCompleted?: boolean;
  now: string;
}

/**
 * A complete users row with the server-owned fields at their defaults (never an admin, not
 * verified, a fresh token key), so every path that creates an account fills them the same way.
 */
export async function newUserRow(input: NewUser): Promise<UserRow> {
  return {
    id: newRecordId(),
    username: input.username,
    name: input.name,
    email: input.email,
    email_visibility: input.emailVisibility === true ? 1 : 0,
    verified: 0,
    password_hash: await hashPassword(input.password),
    token_key: randomAlphanumeric(50),
    is_admin: 0,
    type: input.type ?? 'user',
    description: input.description ?? '',
    created_by: input.createdBy ?? null,
    site_wide_available: input.siteWideAvailable === undefined || input.siteWideAvailable === null ? null : input.siteWideAvailable ? 1 : 0,
    dev_room_id: null,
    api_key_hash: input.apiKeyHash ?? null,
    openai_api_key_encrypted: '',
    gemini_api_key_encrypted: '',
    soft_registered: input.softRegistered === true ? 1 : 0,
    signup_completed: input.signupCompleted === true ? 1 : 0,
    // On for everyone; agents and temporary accounts are never mailed whatever it says (services/notificationSettings.ts).
    email_notifications: 1,
    created: input.now,
    updated: input.now,
  };
}
