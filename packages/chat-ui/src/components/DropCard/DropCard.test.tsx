import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { useDropsStore } from '../../internal/dropsClient';
import { createFakeBackend, errorResponse } from '@confab/client/testing/fakeBackend';
import { buildFakeDrop } from '@confab/client/testing/fakeDrops';
import { DropCard } from './DropCard';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice', password: 'wonderland' };
const now = Date.parse('2026-01-10T12:00:00Z');

async function setup(overrides: Parameters<typeof buildFakeDrop>[0] = { title: 'Launch plan' }) {
  const backend = createFakeBackend({ users: [alice] });
  const drop = backend.addDrop({
    chat_id: 'chat_design_01',
    chat_name: 'Design',
    chat_avatar: 'D',
    excerpt: 'We ship on Monday.',
    published_at: '2026-01-10 09:00:00.000Z',
    like_count: 4,
    view_count: 12,
    reading_time: 3,
    ...overrides,
  });
  const result = renderWithConfab(<DropCard drop={drop} now={now} />, { backend });
  await act(() => result.client.login('alice', 'wonderland'));
  return { ...result, drop };
}

/** The card as the feed shows it: the store's copy, which likes and bookmarks update. */
function FirstFeedCard() {
  const drop = useDropsStore((state) => state.feed.drops[0]);
  return drop ? <DropCard drop={drop} now={now} /> : null;
}

async function setupFromStore() {
  const backend = createFakeBackend({ users: [alice] });
  backend.addDrop({ title: 'Launch plan', like_count: 4 });
  backend.dropData.follows.add('chat1');
  const result = renderWithConfab(<FirstFeedCard />, { backend });
  await act(() => result.client.login('alice', 'wonderland'));
  await act(() => result.client.drops.loadFeed('following'));
  return result;
}

describe('DropCard', () => {
  it('shows the chat, relative date, title, excerpt, stats and buttons of docs/PRODUCT.md §2', async () => {
    await setup();
    const card = screen.getByRole('article', { name: 'Launch plan' });
    expect(within(card).getByRole('link', { name: 'Design' })).toHaveAttribute('href', '/chat/chat_design_01/drops');
    expect(within(card).getByText('D')).toBeInTheDocument();
    expect(within(card).getByText('3h ago')).toBeInTheDocument();
    expect(within(card).getByRole('heading', { level: 3, name: 'Launch plan' })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Launch plan' })).toHaveAttribute('href', '/drops/launch-plan');
    expect(card).toHaveTextContent('We ship on Monday.');
    expect(card).toHaveTextContent('12 views');
    expect(card).toHaveTextContent('3 min read');
    expect(within(card).getByRole('button', { name: 'Like 4', pressed: false })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Bookmark', pressed: false })).toBeInTheDocument();
    expect(within(card).queryByRole('img')).not.toBeInTheDocument();
    expect(within(card).queryByRole('list', { name: 'Tags' })).not.toBeInTheDocument();
  });

  it('shows at most 3 tags, then +N, and the featured image lazily with alt text', async () => {
    await setup({ title: 'Tagged', tags: ['design', 'launch', 'q1', 'ops', 'misc'], featured_image: 'https://images.example/cover.png' });
    const tags = screen.getByRole('list', { name: 'Tags' });
    expect(within(tags).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['#design', '#launch', '#q1', '+2']);
    const image = screen.getByRole('img', { name: 'Tagged' });
    expect(image).toHaveAttribute('loading', 'lazy');
    // Through the server's image proxy (docs/SECURITY.md C9), with the API's origin and a file
    // token.
    await waitFor(() => expect(image.getAttribute('src')).toMatch(/^http:\/\/[^/]+\/api\/image-proxy\?token=[^&]+&url=https%3A%2F%2Fimages\.example%2Fcover\.png$/));
  });

  it('uses a short month and day after 7 days (docs/PRODUCT.md §9)', async () => {
    await setup({ title: 'Old news', published_at: '2025-12-20 12:00:00.000Z' });
    expect(screen.getByRole('article', { name: 'Old news' })).toHaveTextContent('Dec 20');
  });

  it('opens the drop on a click anywhere on the card, and the chat from its header', async () => {
    const { user, navigate } = await setup();
    await user.click(screen.getByText('We ship on Monday.'));
    expect(navigate).toHaveBeenLastCalledWith('/drops/launch-plan');
    await user.click(screen.getByRole('link', { name: 'Design' }));
    expect(navigate).toHaveBeenLastCalledWith('/chat/chat_design_01/drops');
    await user.click(screen.getByRole('link', { name: 'Launch plan' }));
    expect(navigate).toHaveBeenLastCalledWith('/drops/launch-plan');
    navigate.mockClear();
    await user.click(screen.getByRole('button', { name: /^Like/ }));
    expect(navigate).not.toHaveBeenCalled();
  });

  it('likes and bookmarks at once; a refused like rolls back silently', async () => {
    const { user, backend } = await setupFromStore();
    const release = backend.hold();
    await user.click(screen.getByRole('button', { name: 'Like 4' }));
    const like = screen.getByRole('button', { name: 'Like 5', pressed: true });
    expect(like).toHaveAttribute('aria-disabled', 'true');
    release();
    await waitFor(() => expect(like).not.toHaveAttribute('aria-disabled'));
    const dropId = backend.dropData.drops[0]!.id;
    expect(backend.dropSeenBy(backend.users[0]!.id, dropId)).toMatchObject({ is_liked: true, like_count: 5 });

    await user.click(screen.getByRole('button', { name: 'Bookmark', pressed: false }));
    await waitFor(() => expect(backend.dropSeenBy(backend.users[0]!.id, dropId)?.is_bookmarked).toBe(true));
    expect(screen.getByRole('button', { name: 'Bookmark', pressed: true })).toBeInTheDocument();

    backend.override(`POST /api/drops/${backend.dropData.drops[0]!.id}/like`, () => errorResponse(500, 'Boom.'));
    await user.click(screen.getByRole('button', { name: 'Like 5' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Like 5', pressed: true })).not.toHaveAttribute('aria-disabled'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
