import type { PendingInvitation } from '../protocol';
import { announceChange } from './fakeAnnouncements';
import type { FakeChat, FakeMessage, FakeUser } from './fakeBackend';
import { callerId, errorResponse, json, nextRecordId, stamp } from './fakeHttp';

/*
 * The routes of the fake backend for one's own invitations and leaving a chat (docs/CONTRACTS.md,
 * "Invitations and onboarding"). Kept to bookkeeping on purpose (docs/STYLE.md, One fake, held to
 * the real thing): the caller sees, accepts and declines the invitations addressed to them, and
 * leaves chats they are in. The server's rules (who may invite, the hourly limits, the last admin,
 * the only participant) are not repeated here; they are tested on the real server, and a test that
 * needs a refusal scripts it with `backend.override(...)`.
 */

/** A pending invitation and the user it is addressed to. */
export interface FakeInvitation extends PendingInvitation {
  invitee: string;
}

export type FakeInvitationInput = Partial<PendingInvitation> & { chat: PendingInvitation['chat']; invitee: string };

export function buildFakeInvitation(input: FakeInvitationInput): FakeInvitation {
  return {
    id: nextRecordId('inv'),
    invited_by: { username: 'bob', name: 'Bob Builder' },
    created: stamp(0),
    expires_at: stamp(7 * 24 * 60),
    ...input,
  };
}

export function createInvitationRoutes(data: { users: FakeUser[]; chats: FakeChat[]; messages: FakeMessage[]; invitations: FakeInvitation[] }) {
  const publicView = ({ invitee: _invitee, ...invitation }: FakeInvitation): PendingInvitation => invitation;

  /** POST /api/invite-to-chat: by e-mail a pending invitation for the user with that address, by username straight in. */
  const invite = (caller: string, body: Record<string, unknown>): Response => {
    const chat = data.chats.find((candidate) => candidate.id === String(body['chat_id'] ?? '').trim() && candidate.participants.includes(caller));
    if (chat === undefined) return errorResponse(404, 'Chat not found');
    if (!chat.admins.includes(caller)) return errorResponse(403, 'Only chat admins can invite people.');
    const email = String(body['email'] ?? '').trim().toLowerCase();
    if (email === '') {
      const user = data.users.find((candidate) => candidate.username === String(body['username'] ?? '').trim());
      if (user === undefined) return errorResponse(404, 'User not found');
      if (!chat.participants.includes(user.id)) {
        chat.participants.push(user.id);
        announceChange(data, chat, caller, { kind: 'added', subject: { id: user.id, name: user.name || user.username } });
      }
      return json(200, { success: true, status: 'added', chat_id: chat.id, user: { id: user.id, username: user.username, name: user.name } });
    }
    const invitee = data.users.find((candidate) => candidate.email.toLowerCase() === email);
    if (invitee !== undefined && !chat.participants.includes(invitee.id)) {
      const inviter = data.users.find((candidate) => candidate.id === caller);
      data.invitations.push(
        buildFakeInvitation({ chat: { id: chat.id, name: chat.name }, invitee: invitee.id, invited_by: { username: inviter?.username ?? '', name: inviter?.name ?? '' } }),
      );
    }
    return json(200, { success: true, status: 'invited', chat_id: chat.id });
  };

  return (request: Request, url: URL, body: Record<string, unknown>): Response | null => {
    if (url.pathname === '/api/invite-to-chat' && request.method === 'POST') {
      const caller = callerId(request);
      return caller === null ? errorResponse(401, 'Missing or invalid authentication.') : invite(caller, body);
    }
    const mine = /^\/api\/my-invitations(?:\/([^/]+)\/(accept|decline))?$/.exec(url.pathname);
    const leaving = /^\/api\/chats\/([^/]+)\/leave$/.exec(url.pathname);
    if (mine === null && leaving === null) return null;
    const caller = callerId(request);
    if (caller === null) return errorResponse(401, 'Missing or invalid authentication.');

    if (leaving !== null && request.method === 'POST') {
      const chat = data.chats.find((candidate) => candidate.id === leaving[1] && candidate.participants.includes(caller));
      if (chat === undefined) return errorResponse(404, 'Chat not found');
      chat.participants = chat.participants.filter((id) => id !== caller);
      chat.admins = chat.admins.filter((id) => id !== caller);
      announceChange(data, chat, caller, { kind: 'left' });
      return new Response(null, { status: 204 });
    }
    if (mine === null) return null;
    const [, id, action] = mine;
    if (id === undefined && request.method === 'GET') {
      return json(200, { invitations: data.invitations.filter((invitation) => invitation.invitee === caller).map(publicView) });
    }
    if (id === undefined || request.method !== 'POST') return null;
    const invitation = data.invitations.find((candidate) => candidate.id === id && candidate.invitee === caller);
    if (invitation === undefined) return errorResponse(404, 'Invitation not found');
    data.invitations.splice(data.invitations.indexOf(invitation), 1);
    if (action === 'decline') return new Response(null, { status: 204 });
    const chat = data.chats.find((candidate) => candidate.id === invitation.chat.id);
    if (chat !== undefined && !chat.participants.includes(caller)) {
      chat.participants.push(caller);
      announceChange(data, chat, caller, { kind: 'joined_via_invitation' });
    }
    return json(200, { chat_id: invitation.chat.id });
  };
}
