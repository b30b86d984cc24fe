import { describe, expect, it } from 'vitest';
import { clientMessage } from '../../testing/builders';
import { messageActions } from './messageActions';

const me = 'user00000000001';
const chat = 'chat00000000001';
const mine = (overrides: Parameters<typeof clientMessage>[0]) => clientMessage({ author_id: me, chat_id: chat, ...overrides });
const theirs = (overrides: Parameters<typeof clientMessage>[0]) => clientMessage({ author_id: 'user00000000002', chat_id: chat, ...overrides });

describe('messageActions', () => {
  it('lets the author edit and delete their own sent message', () => {
    expect(messageActions(mine({ content: 'x' }), { userId: me, adminOfChat: null })).toEqual({ canEdit: true, canDelete: true, canReact: true });
  });

  it("gives others only reactions on someone else's message, and an admin of the chat Delete too", () => {
    expect(messageActions(theirs({ content: 'x' }), { userId: me, adminOfChat: null })).toEqual({ canEdit: false, canDelete: false, canReact: true });
    expect(messageActions(theirs({ content: 'x' }), { userId: me, adminOfChat: chat })).toEqual({ canEdit: false, canDelete: true, canReact: true });
    // Admin of another chat than the message's.
    expect(messageActions(theirs({ content: 'x' }), { userId: me, adminOfChat: 'chat00000000009' })).toEqual({ canEdit: false, canDelete: false, canReact: true });
  });

  it("never offers Edit on an agent's message", () => {
    const agents = theirs({ content: 'x', author_id: 'agent0000000001', is_agent: true });
    expect(messageActions(agents, { userId: me, adminOfChat: chat })).toEqual({ canEdit: false, canDelete: true, canReact: true });
  });

  it('offers nothing on a message not stored yet, or gone', () => {
    const viewer = { userId: me, adminOfChat: chat };
    for (const status of ['pending', 'failed', 'streaming'] as const) {
      expect(messageActions(mine({ content: 'x', status, seq: null }), viewer)).toEqual({ canEdit: false, canDelete: false, canReact: false });
    }
    expect(messageActions(mine({ content: '', deleted_at: '2026-01-05 12:00:00.000Z' }), viewer)).toEqual({ canEdit: false, canDelete: false, canReact: false });
  });

  it('offers nothing to nobody signed in', () => {
    expect(messageActions(mine({ content: 'x' }), { userId: null, adminOfChat: null })).toEqual({ canEdit: false, canDelete: false, canReact: false });
  });
});
