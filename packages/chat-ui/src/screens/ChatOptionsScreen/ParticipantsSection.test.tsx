import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { chatRecord, userRecordOf } from '../../testing/builders';
import { ParticipantsSection } from './ParticipantsSection';

const alice = userRecordOf('user_alice_0001', 'alice', 'Alice Liddell');
const helper = userRecordOf('agent_help_0001', 'alice_helper', 'Alice Helper', 'developer-agent');
const deep = userRecordOf('agent_deep_0001', 'deep', 'Deep Research', 'confab-agent');

describe('ParticipantsSection', () => {
  it('marks every agent among the participants with an Agent badge, in its accessible name too, and no person', () => {
    const chat = chatRecord({
      id: 'chat_design_001',
      name: 'Design',
      participants: [alice.id, helper.id, deep.id],
      admins: [alice.id],
      expand: { participants: [alice, helper, deep] },
    });
    renderWithConfab(<ParticipantsSection chat={chat} currentUserId={alice.id} disabled={false} />);
    for (const name of ['Alice Helper', 'Deep Research']) {
      const item = screen.getByRole('listitem', { name: `${name} (Agent)` });
      expect(within(item).getByText('Agent')).toHaveClass('cf-badge', 'cf-badge--agent');
    }
    const person = screen.getByRole('listitem', { name: 'Alice Liddell' });
    expect(within(person).queryByText('Agent')).not.toBeInTheDocument();
  });

  it('marks the people online with a dot read as online', () => {
    const bob = userRecordOf('user_bob_000001', 'bob', 'Bob');
    const chat = chatRecord({ id: 'chat_design_001', name: 'Design', participants: [alice.id, bob.id], admins: [alice.id], expand: { participants: [alice, bob] } });
    const { client } = renderWithConfab(<ParticipantsSection chat={chat} currentUserId={alice.id} disabled={false} />);
    expect(screen.queryByText('online')).not.toBeInTheDocument();
    act(() => client.store.setState({ onlineUserIds: [bob.id] }));
    const online = screen.getByRole('listitem', { name: 'Bob, online' });
    expect(within(online).getByText('online')).toBeInTheDocument();
    expect(within(screen.getByRole('listitem', { name: 'Alice Liddell' })).queryByText('online')).not.toBeInTheDocument();
  });
});
