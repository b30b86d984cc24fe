import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ReactionChips } from './ReactionChips';

const ann = { id: 'user_ann', username: 'ann', name: 'Ann' };
const bob = { id: 'user_bob', username: 'bob', name: 'Bob' };

describe('ReactionChips', () => {
  it('names each chip with its emoji, count and who reacted, and presses the viewer’s own', () => {
    render(
      <ReactionChips
        reactions={[
          { emoji: '👍', count: 2, users: [ann, bob] },
          { emoji: '🎉', count: 1, users: [bob] },
        ]}
        viewerId={ann.id}
        onToggle={() => {}}
      />,
    );
    const list = screen.getByRole('list', { name: 'Reactions' });
    expect(list).toBeInTheDocument();
    const thumbs = screen.getByRole('button', { name: '👍 2: ann, bob' });
    expect(thumbs).toHaveAttribute('aria-pressed', 'true');
    expect(thumbs).toHaveAttribute('title', '👍 2: ann, bob');
    expect(screen.getByRole('button', { name: '🎉 1: bob' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('toggles the viewer’s own reaction: off when pressed, on when not', async () => {
    const onToggle = vi.fn();
    render(<ReactionChips reactions={[{ emoji: '👍', count: 1, users: [ann] }, { emoji: '🎉', count: 1, users: [bob] }]} viewerId={ann.id} onToggle={onToggle} />);
    await userEvent.click(screen.getByRole('button', { name: '👍 1: ann' }));
    await userEvent.click(screen.getByRole('button', { name: '🎉 1: bob' }));
    expect(onToggle.mock.calls).toEqual([
      ['👍', false],
      ['🎉', true],
    ]);
  });

  it('only shows without onToggle, and renders nothing without reactions', () => {
    const { rerender } = render(<ReactionChips reactions={[{ emoji: '👀', count: 1, users: [bob] }]} />);
    expect(screen.getByRole('button', { name: '👀 1: bob' })).toBeDisabled();
    rerender(<ReactionChips reactions={[]} />);
    expect(screen.queryByRole('list', { name: 'Reactions' })).not.toBeInTheDocument();
  });
});
