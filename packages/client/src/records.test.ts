import { describe, expect, it } from 'vitest';
import { displayNameOf, isChatAdmin, needsAccountCompletion, resolveAgentPermissions } from './records';
import { buildChat, buildUser } from './testing/builders';

describe('records', () => {
  it('tells chat admins', () => {
    const chat = buildChat({ admins: ['u1'] });
    expect(isChatAdmin(chat, 'u1')).toBe(true);
    expect(isChatAdmin(chat, 'u2')).toBe(false);
    expect(isChatAdmin(null, 'u1')).toBe(false);
    expect(isChatAdmin(chat, null)).toBe(false);
  });

  it.each([
    [undefined, { confabAgents: true, developerAgents: false, agentsMayReadFiles: false }],
    [null, { confabAgents: true, developerAgents: false, agentsMayReadFiles: false }],
    [{}, { confabAgents: true, developerAgents: false, agentsMayReadFiles: false }],
    [{ confab_agents: false, developer_agents: true }, { confabAgents: false, developerAgents: true, agentsMayReadFiles: false }],
    [{ agents_may_read_files: true }, { confabAgents: true, developerAgents: false, agentsMayReadFiles: true }],
  ])('agent permissions %j → %j', (agentPermissions, expected) => {
    expect(resolveAgentPermissions({ agent_permissions: agentPermissions })).toEqual(expected);
  });

  it('asks only soft-registered, incomplete users to complete their account', () => {
    expect(needsAccountCompletion(buildUser({ soft_registered: true, signup_completed: false }))).toBe(true);
    expect(needsAccountCompletion(buildUser({ soft_registered: true, signup_completed: true }))).toBe(false);
    expect(needsAccountCompletion(buildUser({ soft_registered: false }))).toBe(false);
    expect(needsAccountCompletion(null)).toBe(false);
  });

  it('shows the name, else the username', () => {
    expect(displayNameOf({ name: 'Alice A.', username: 'alice' })).toBe('Alice A.');
    expect(displayNameOf({ name: '', username: 'alice' })).toBe('alice');
  });
});
