import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { loadEmojiList, searchEmoji } from './commonEmoji';
import { ReactionPicker } from './ReactionPicker';

describe('ReactionPicker', () => {
  it('focuses the search, offers the common emoji, and picks with the arrow keys and Enter', async () => {
    const onPick = vi.fn();
    const onClose = vi.fn();
    render(<ReactionPicker onPick={onPick} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Add reaction' });
    const search = within(dialog).getByLabelText('Search emoji');
    expect(search).toHaveFocus();
    const grid = within(dialog).getByRole('group', { name: 'Common emoji' });
    expect(within(grid).getAllByRole('button')).toHaveLength(24);
    await userEvent.keyboard('{ArrowDown}');
    expect(within(grid).getByRole('button', { name: 'thumbs up' })).toHaveFocus();
    // Two right, a row (8) down, one left: the tenth.
    await userEvent.keyboard('{ArrowRight}{ArrowRight}{ArrowDown}{ArrowLeft}');
    expect(within(grid).getByRole('button', { name: 'rocket' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(onPick).toHaveBeenCalledWith('🚀');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('searches Unicode’s whole list, loaded on first search; Enter in the box picks the first match', async () => {
    const onPick = vi.fn();
    render(<ReactionPicker onPick={onPick} onClose={() => {}} />);
    await userEvent.type(screen.getByLabelText('Search emoji'), 'pineapple');
    const matches = await screen.findByRole('group', { name: 'Matching emoji' });
    // The whole list is a large JSON module: its first load may take a while on a busy machine.
    await waitFor(() => expect(within(matches).getByRole('button', { name: 'pineapple' })).toBeInTheDocument(), { timeout: 15_000 });
    await userEvent.keyboard('{Enter}');
    expect(onPick).toHaveBeenCalledWith('🍍');
  });

  it('says when nothing matches or the list cannot be loaded, and closes on Escape', async () => {
    const onClose = vi.fn();
    const { unmount } = render(<ReactionPicker onPick={() => {}} onClose={onClose} loadList={() => Promise.reject(new Error('offline'))} />);
    await userEvent.type(screen.getByLabelText('Search emoji'), 'cat');
    expect(await screen.findByRole('alert')).toHaveTextContent('The emoji list could not be loaded.');
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    unmount();
    render(<ReactionPicker onPick={() => {}} onClose={() => {}} />);
    await userEvent.type(screen.getByLabelText('Search emoji'), 'zzzqqq');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('No emoji found.'), { timeout: 15_000 });
  });

  it('matches every word of the query against the names', async () => {
    const list = await loadEmojiList();
    expect(searchEmoji(list, 'thumbs up').map((choice) => choice.emoji)).toContain('👍');
    expect(list.length).toBeGreaterThan(1500);
  });
});
