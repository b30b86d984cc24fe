import { describe, expect, it } from 'vitest';
import { leaveRefusal, leaveRefusals, mayInvite } from './chatMembership';

const types = new Map([
  ['ann', 'user'],
  ['ben', 'user'],
  ['bot', 'confab-agent'],
  ['dev', 'developer-agent'],
]);

describe('leaveRefusal', () => {
  it.each([
    ['a member with an admin staying', { participants: ['ann', 'ben'], admins: ['ann'] }, 'ben', undefined],
    ['an admin with another admin staying', { participants: ['ann', 'ben'], admins: ['ann', 'ben'] }, 'ann', undefined],
    ['the last admin', { participants: ['ann', 'ben'], admins: ['ann'] }, 'ann', leaveRefusals.lastAdmin],
    ['the last admin whose co-admin is an agent', { participants: ['ann', 'ben', 'bot'], admins: ['ann', 'bot'] }, 'ann', leaveRefusals.lastAdmin],
    ['the only participant', { participants: ['ann'], admins: ['ann'] }, 'ann', leaveRefusals.onlyParticipant],
    ['the only person among agents', { participants: ['ann', 'bot', 'dev'], admins: ['ann'] }, 'ann', leaveRefusals.onlyParticipant],
  ])('%s', (_name, members, userId, expected) => {
    expect(leaveRefusal({ ...members, types }, userId)).toBe(expected);
  });
});

describe('mayInvite', () => {
  it('is for admins only', () => {
    expect(mayInvite({ participants: ['ann', 'ben'], admins: ['ann'] }, 'ann')).toBe(true);
    expect(mayInvite({ participants: ['ann', 'ben'], admins: ['ann'] }, 'ben')).toBe(false);
  });
});
