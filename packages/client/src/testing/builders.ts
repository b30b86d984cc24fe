import type { PendingInvitation } from '../protocol';
import type { ChatRecord, UserRecord } from '../types';

/* Fixture builders for tests: defaults for every field, overrides per test. */

export function buildUser(overrides: Partial<UserRecord> = {}): UserRecord {
  return {
    id: 'user00000000001',
    collectionId: '_pb_users_auth_',
    collectionName: 'users',
    username: 'alice',
    name: 'Alice',
    email: 'alice@example.com',
    type: 'user',
    soft_registered: false,
    signup_completed: true,
    created: '2026-01-01 00:00:00.000Z',
    updated: '2026-01-01 00:00:00.000Z',
    ...overrides,
  };
}

export function buildChat(overrides: Partial<ChatRecord> = {}): ChatRecord {
  return {
    id: 'chat00000000001',
    collectionId: 'chats',
    collectionName: 'chats',
    name: 'Team',
    description: '',
    creator: 'user00000000001',
    participants: ['user00000000001'],
    admins: ['user00000000001'],
    created: '2026-01-01 00:00:00.000Z',
    updated: '2026-01-01 00:00:00.000Z',
    ...overrides,
  };
}

export function buildPendingInvitation(overrides: Partial<PendingInvitation> = {}): PendingInvitation {
  return {
    id: 'invitation00001',
    chat: { id: 'chat00000000001', name: 'Team' },
    invited_by: { username: 'bob', name: 'Bob' },
    created: '2026-01-01 00:00:00.000Z',
    expires_at: '2026-01-08 00:00:00.000Z',
    ...overrides,
  };
}
