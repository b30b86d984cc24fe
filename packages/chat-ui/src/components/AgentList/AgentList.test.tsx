import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { AgentList, type AgentListProps } from './AgentList';

const props: AgentListProps = { title: 'Your agents', loading: false, failed: false, onRetry: () => {}, empty: false, emptyText: 'No agents yet.' };

describe('AgentList', () => {
  it('is a region named by its heading, holding the cards', () => {
    renderWithConfab(
      <AgentList {...props}>
        <article aria-label="Echo Bot" />
      </AgentList>,
    );
    const list = screen.getByRole('region', { name: 'Your agents' });
    expect(within(list).getByRole('heading', { level: 2, name: 'Your agents' })).toBeInTheDocument();
    expect(within(list).getByRole('article', { name: 'Echo Bot' })).toBeInTheDocument();
    expect(within(list).queryByRole('status')).not.toBeInTheDocument();
    expect(within(list).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(list).queryByText('No agents yet.')).not.toBeInTheDocument();
  });

  it('shows loading, the empty note, and a failure with Try again', async () => {
    const onRetry = vi.fn();
    const { rerender, user } = renderWithConfab(<AgentList {...props} loading />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading agents...');

    rerender(<AgentList {...props} empty />);
    expect(screen.getByText('No agents yet.')).toBeInTheDocument();

    rerender(<AgentList {...props} failed onRetry={onRetry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load agents.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
