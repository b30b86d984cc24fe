import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { agentNoticeTexts } from '@confab/client/protocol';
import { AgentNotice } from './AgentNotice';

describe('AgentNotice', () => {
  it('is a status message that says only the sender sees it', () => {
    const text = agentNoticeTexts.developerAgentsOff;
    render(<AgentNotice notice={{ id: 'n1', chat_id: 'c1', message_id: 'm1', agent_username: 'echo', reason: 'developer_agents_off', text, received_at: '2026-01-05T12:30:00Z' }} />);
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent(text);
    expect(notice).toHaveTextContent('Only you can see this');
  });
});
