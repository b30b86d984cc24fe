import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AgentCardFrame } from './AgentCardFrame';

describe('AgentCardFrame', () => {
  it("is an article named by the agent's name, with @username, badges, description, error and controls", () => {
    render(
      <AgentCardFrame agent={{ name: 'Echo Bot', username: 'echo_bot', description: 'Says it back.' }} badges={<span>Online</span>} error="Failed to delete agent: Busy.">
        <button type="button">Delete</button>
      </AgentCardFrame>,
    );
    const card = screen.getByRole('article', { name: 'Echo Bot' });
    expect(within(card).getByRole('heading', { level: 3, name: 'Echo Bot' })).toBeInTheDocument();
    expect(card).toHaveTextContent('@echo_bot');
    expect(card).toHaveTextContent('Online');
    expect(card).toHaveTextContent('Says it back.');
    expect(within(card).getByRole('alert')).toHaveTextContent('Failed to delete agent: Busy.');
    expect(within(card).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
  });

  it('leaves out a blank description and a missing error', () => {
    const { container } = render(
      <AgentCardFrame agent={{ name: 'Todo Keeper', username: 'todo_keeper', description: '  ' }} badges={null} error={null}>
        {null}
      </AgentCardFrame>,
    );
    expect(container.querySelector('.cf-agent-card__description')).toBeNull();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
