import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AgentStatusBar } from './AgentStatusBar';

const deep = { id: 'agentdeep000001', username: 'deep', name: 'Deep Research' };
const data = { id: 'agentdata000001', username: 'data', name: 'Data' };

describe('AgentStatusBar', () => {
  it('is an empty live region while no agent is at work', () => {
    render(<AgentStatusBar statuses={[]} />);
    expect(screen.getByRole('status', { name: 'Agent activity' })).toBeEmptyDOMElement();
  });

  it("shows each agent's line as '@username text'", () => {
    render(
      <AgentStatusBar
        statuses={[
          { chat_id: 'c1', agent: deep, text: 'is searching…' },
          { chat_id: 'c1', agent: data, text: 'is running a query…' },
        ]}
      />,
    );
    const lines = within(screen.getByRole('status', { name: 'Agent activity' })).getAllByRole('listitem');
    expect(lines.map((line) => line.textContent?.trim())).toEqual(['@deep is searching…', '@data is running a query…']);
  });
});
