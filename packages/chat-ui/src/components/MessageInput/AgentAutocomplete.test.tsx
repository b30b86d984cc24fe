import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AgentSearchHit } from '@confab/client';
import { AgentAutocomplete, type AgentAutocompleteProps } from './AgentAutocomplete';

const deep: AgentSearchHit = {
  id: 'agentdeep000001',
  name: 'Deep Research',
  username: 'deep',
  agent_type: 'confab-agent',
  description: 'Researches a question across many sources and writes a report with citations.',
  status: 'active',
  created_by: '',
};
const echo: AgentSearchHit = { ...deep, id: 'agentecho000001', name: 'Echo', username: 'echo', agent_type: 'developer-agent', description: '', status: 'online' };

function renderState(state: AgentAutocompleteProps['state'], activeIndex = 0) {
  const onPick = vi.fn();
  const onActivate = vi.fn();
  const result = render(
    <AgentAutocomplete state={state} listboxId="agents" optionId={(index) => `agents-${index}`} activeIndex={activeIndex} onPick={onPick} onActivate={onActivate} />,
  );
  return { ...result, onPick, onActivate };
}

describe('AgentAutocomplete', () => {
  it('renders nothing while hidden', () => {
    const { container } = renderState({ status: 'idle' });
    expect(container).toBeEmptyDOMElement();
  });

  it('announces the search, and no match with a hint', () => {
    const { rerender } = renderState({ status: 'searching', query: 'de' });
    expect(screen.getByRole('status')).toHaveTextContent('Searching agents...');
    rerender(<AgentAutocomplete state={{ status: 'none', query: 'zz' }} listboxId="agents" optionId={String} activeIndex={0} onPick={vi.fn()} />);
    expect(screen.getByRole('status')).toHaveTextContent('No agents found for "zz"');
  });

  it('lists agents as options with their type and a description cut to 60 characters; the mouse picks', async () => {
    const { onPick, onActivate } = renderState({ status: 'results', query: 'e', agents: [deep, echo] }, 1);
    const listbox = screen.getByRole('listbox', { name: 'Agents' });
    expect(listbox).toHaveAttribute('id', 'agents');
    const [first, second] = within(listbox).getAllByRole('option');
    expect(first).toHaveAttribute('id', 'agents-0');
    expect(first).toHaveAttribute('aria-selected', 'false');
    expect(second).toHaveAttribute('aria-selected', 'true');
    expect(first).toHaveTextContent('@deep Deep Research Confab agent');
    expect(second).toHaveTextContent('Developer agent');
    const description = first?.querySelector('.cf-autocomplete__description')?.textContent ?? '';
    expect(description).toHaveLength(60);
    expect(description.endsWith('…')).toBe(true);
    const user = userEvent.setup();
    await user.hover(first as HTMLElement);
    expect(onActivate).toHaveBeenCalledWith(0);
    await user.click(second as HTMLElement);
    expect(onPick).toHaveBeenCalledWith(echo);
  });
});
