import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { DropScreen } from './DropScreen';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice', password: 'wonderland' };

async function setup(options: { prepare?: (backend: FakeBackend) => void; confirm?: (question: string) => boolean; slug?: string } = {}) {
  const backend = createFakeBackend({ users: [alice] });
  const drop = backend.addDrop({
    title: 'Launch plan',
    chat_id: 'chat_design_01',
    chat_name: 'Design',
    content: '## Steps\n\nShip **on Monday**.\n\n<img src=x onerror="alert(1)"> <script>alert(2)</script>',
    view_count: 12,
    like_count: 3,
    reading_time: 2,
    can_delete: true,
  });
  options.prepare?.(backend);
  const confirm = vi.fn(options.confirm ?? (() => true));
  const result = renderWithConfab(<DropScreen slug={options.slug ?? 'launch-plan'} confirm={confirm} />, { backend, documentTitle: true });
  await act(() => result.client.login('alice', 'wonderland'));
  return { ...result, drop, confirm };
}

describe('DropScreen', () => {
  it('shows the chat, title, stats and the content through the message sanitiser', async () => {
    await setup();
    const article = await screen.findByRole('article', { name: 'Launch plan' });
    expect(screen.getByRole('heading', { level: 1, name: 'Launch plan' })).toBeInTheDocument();
    expect(within(article).getByRole('link', { name: 'Design' })).toHaveAttribute('href', '/chat/chat_design_01/drops');
    const stats = within(article).getByRole('list', { name: 'Stats' });
    expect(within(stats).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['12 views', '3 likes', '2 min read']);
    expect(within(article).getByRole('heading', { level: 2, name: 'Steps' })).toBeInTheDocument();
    expect(within(article).getByText('on Monday').tagName).toBe('STRONG');
    expect(article.querySelector('script')).toBeNull();
    expect(article.querySelector('[onerror]')).toBeNull();
    expect(article.querySelector('img')).toHaveAttribute('loading', 'lazy');
    expect(document.title).toBe('Launch plan - Drops - Confab');
  });

  it('likes and bookmarks; the like count follows', async () => {
    const { user, backend } = await setup();
    const article = await screen.findByRole('article', { name: 'Launch plan' });
    await user.click(within(article).getByRole('button', { name: 'Like 3', pressed: false }));
    expect(within(article).getByRole('button', { name: 'Like 4', pressed: true })).toBeInTheDocument();
    expect(within(article).getByRole('list', { name: 'Stats' })).toHaveTextContent('4 likes');
    await user.click(within(article).getByRole('button', { name: 'Bookmark', pressed: false }));
    await waitFor(() => expect(backend.dropSeenBy(backend.users[0]!.id, 'launch-plan')).toMatchObject({ is_liked: true, like_count: 4, is_bookmarked: true }));
  });

  it('deletes after asking, then opens the chat’s drops', async () => {
    const { user, confirm, navigate, backend } = await setup();
    await screen.findByRole('article', { name: 'Launch plan' });
    confirm.mockReturnValueOnce(false);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete this drop? This cannot be undone.');
    expect(backend.dropData.drops).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/chat/chat_design_01/drops', { replace: true }));
    expect(backend.dropData.drops).toHaveLength(0);
  });

  it('offers no Delete to someone who may not delete it', async () => {
    await setup({ prepare: (backend) => (backend.dropData.drops[0]!.can_delete = false) });
    await screen.findByRole('article', { name: 'Launch plan' });
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it("says 'Drop not found' for an unknown slug", async () => {
    await setup({ slug: 'nothing-here' });
    expect(await screen.findByRole('heading', { name: 'Drop not found' })).toBeInTheDocument();
  });

  it("shows 'Failed to load drop' with Retry", async () => {
    let failing = true;
    const { user } = await setup({
      prepare: (backend) => backend.override('GET /api/drops/launch-plan', () => (failing ? errorResponse(500, 'Boom.') : new Response(JSON.stringify(backend.dropData.drops[0]), { status: 200 }))),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load drop');
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('article', { name: 'Launch plan' })).toBeInTheDocument();
  });
});
