import { waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openChatWithMessages, people } from '../../../test/chatWithMessages';
import { stubMessageListLayout } from '../../../test/layout';

beforeEach(() => stubMessageListLayout(600));
afterEach(() => vi.restoreAllMocks());

const reactionCalls = (backend: { requests: Array<{ route: string }> }) =>
  backend.requests.filter((request) => request.route.includes('/reactions/')).map((request) => decodeURIComponent(request.route));

describe('reacting in the message list', () => {
  it('adds a reaction from the picker, shows the chip with who reacted, and a click on it takes it back', async () => {
    const { user, article, backend, stored } = await openChatWithMessages();
    await user.click(within(article('Bob Builder')).getByRole('button', { name: 'Add reaction' }));
    const picker = await within(article('Bob Builder')).findByRole('dialog', { name: 'Add reaction' });
    await user.click(within(picker).getByRole('button', { name: 'rocket' }));
    const chip = await within(article('Bob Builder')).findByRole('button', { name: '🚀 1: alice' });
    expect(chip).toHaveAttribute('aria-pressed', 'true');
    expect(within(article('Bob Builder')).queryByRole('dialog', { name: 'Add reaction' })).not.toBeInTheDocument();
    await waitFor(() => expect(within(article('Bob Builder')).getByRole('button', { name: 'Add reaction' })).toHaveFocus());

    await user.click(chip);
    await waitFor(() => expect(within(article('Bob Builder')).queryByRole('button', { name: /^🚀/ })).not.toBeInTheDocument());
    expect(reactionCalls(backend)).toEqual([`PUT /api/messages/${stored.bob.id}/reactions/🚀`, `DELETE /api/messages/${stored.bob.id}/reactions/🚀`]);
  });

  it('joins someone else’s reaction from its chip, and says so when the server refuses', async () => {
    const { user, article, backend, stored } = await openChatWithMessages({ as: 'bob' });
    stored.alice.reactions = [{ user: people.alice.id, emoji: '👍' }];
    stored.alice.reactions_version = 1;
    await user.click(within(article('Bob Builder')).getByRole('button', { name: 'Add reaction' }));
    await user.click(within(await within(article('Bob Builder')).findByRole('dialog', { name: 'Add reaction' })).getByRole('button', { name: 'eyes' }));
    await within(article('Bob Builder')).findByRole('button', { name: '👀 1: bob' });

    backend.failNext(400, 'A message can have at most 20 different reactions.');
    await user.click(within(article('Alice Liddell')).getByRole('button', { name: 'Add reaction' }));
    await user.click(within(await within(article('Alice Liddell')).findByRole('dialog', { name: 'Add reaction' })).getByRole('button', { name: 'fire' }));
    expect(await within(article('Alice Liddell')).findByRole('alert')).toHaveTextContent('A message can have at most 20 different reactions.');
    expect(within(article('Alice Liddell')).queryByRole('button', { name: /^🔥/ })).not.toBeInTheDocument();
  });
});
