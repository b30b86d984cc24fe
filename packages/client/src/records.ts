import type { ChatRecord, UserRecord } from './types';

/* Small rules about records that several screens share (docs/PRODUCT.md §3, §4, §6). */

/** isCurrentUserAdmin of the client state: the user is in the chat's admins. */
export function isChatAdmin(chat: ChatRecord | null, userId: string | null | undefined): boolean {
  if (chat === null || userId === undefined || userId === null || userId === '') return false;
  return Array.isArray(chat.admins) && chat.admins.includes(userId);
}

/**
 * Confab agents are allowed unless explicitly false; developer agents, and agents asking @data and
 * @deep about the chat's files, only when explicitly true.
 */
export function resolveAgentPermissions(chat: Pick<ChatRecord, 'agent_permissions'>): {
  confabAgents: boolean;
  developerAgents: boolean;
  agentsMayReadFiles: boolean;
} {
  const permissions = chat.agent_permissions ?? {};
  return {
    confabAgents: permissions.confab_agents !== false,
    developerAgents: permissions.developer_agents === true,
    agentsMayReadFiles: permissions.agents_may_read_files === true,
  };
}

/** Temporary accounts get usernames starting with 'user_' (docs/PRODUCT.md §3). */
export function isTemporaryUsername(username: string): boolean {
  return username.startsWith('user_');
}

/** Soft-registered users who have not completed signup see the banner and /complete-account. */
export function needsAccountCompletion(user: UserRecord | null): boolean {
  return user !== null && user.soft_registered === true && user.signup_completed !== true;
}

/** The name shown for a user: their display name, else the username. */
export function displayNameOf(user: Pick<UserRecord, 'name' | 'username'>): string {
  return user.name.trim() === '' ? user.username : user.name;
}
