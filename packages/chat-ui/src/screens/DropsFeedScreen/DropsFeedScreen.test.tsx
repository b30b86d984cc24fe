import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FeedTab } from '@confab/client';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { buildFakeDrop } from '@confab/client/testing/fakeDrops';
import { DropsFeedScreen } from './DropsFeedScreen';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice', password: 'wonderland' };

/** Launch (followed) has `followed` drops; Design (not followed) has two. */
function seed(backend: FakeBackend, followed = 3) {
  for (let index = 0; index < followed; index += 1) backend.addDrop({ title: `Launch note ${index + 1}`, chat_id: 'chat_launch_01', chat_name: 'Launch', like_count: index });
  backend.addDrop({ title: 'Design system', chat_id: 'chat_design_01', chat_name: 'Design', like_count: 10 });
  backend.addDrop({ title: 'Colour tokens', chat_id: 'chat_design_01', chat_name: 'Design', like_count: 7 });
  backend.dropData.follows.add('chat_launch_01');
}

async function setup(tab: FeedTab = 'following', prepare: (backend: FakeBackend) => void = (backend) => seed(backend)) {
  const backend = createFakeBackend({ users: [alice] });
  prepare(backend);
  const result = renderWithConfab(<DropsFeedScreen tab={tab} />, { backend, documentTitle: true });
  await act(() => result.client.login('alice', 'wonderland'));
  return result;
}

const titles = () => screen.queryAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);

describe('DropsFeedScreen', () => {
  it('opens Following: its status line and the followed chats’ drops, newest first', async () => {
    await setup();
    expect(await screen.findByText('3 drops from chats you follow')).toBeInTheDocument();
    expect(titles()).toEqual(['Launch note 3', 'Launch note 2', 'Launch note 1']);
    expect(document.title).toBe('Drops - Confab');
    const tabs = screen.getByRole('navigation', { name: 'Feeds' });
    expect(within(tabs).getByRole('link', { name: 'Following' })).toHaveAttribute('aria-current', 'page');
    expect(within(tabs).getByRole('link', { name: 'Trending' })).toHaveAttribute('href', '/drops/trending');
    expect(within(tabs).getByRole('link', { name: 'Discover' })).toHaveAttribute('href', '/drops/discover');
    expect(within(tabs).getByRole('link', { name: 'Saved' })).toHaveAttribute('href', '/drops/bookmarks');
    expect(screen.queryByRole('button', { name: 'Load More Drops' })).not.toBeInTheDocument();
  });

  it('switching tabs starts at page 1 of the new tab, with its status line', async () => {
    const { rerender, backend } = await setup();
    await screen.findByText('3 drops from chats you follow');
    rerender(<DropsFeedScreen tab="trending" />);
    expect(await screen.findByText('5 drops trending now')).toBeInTheDocument();
    expect(titles()[0]).toBe('Design system');
    rerender(<DropsFeedScreen tab="discover" />);
    expect(await screen.findByText('2 drops to discover')).toBeInTheDocument();
    expect(titles()).toEqual(['Design system', 'Colour tokens']);
    expect(backend.requests.filter((request) => request.route.startsWith('GET /api/drops/')).map((request) => request.route)).toEqual(
      expect.arrayContaining(['GET /api/drops/feed', 'GET /api/drops/trending', 'GET /api/drops/discover']),
    );
  });

  it('Load More Drops appends the next page while there are more', async () => {
    const { user, backend } = await setup('following', (backend) => seed(backend, 23));
    expect(await screen.findByText('23 drops from chats you follow')).toBeInTheDocument();
    expect(titles()).toHaveLength(20);
    await user.click(screen.getByRole('button', { name: 'Load More Drops' }));
    await waitFor(() => expect(titles()).toHaveLength(23));
    expect(screen.queryByRole('button', { name: 'Load More Drops' })).not.toBeInTheDocument();
    expect(new Set(titles()).size).toBe(23);
    expect(backend.requests.map((request) => request.route).filter((route) => route === 'GET /api/drops/feed')).toHaveLength(2);
  });

  it("shows 'Failed to load drops' with Try again", async () => {
    const backend = createFakeBackend({ users: [alice] });
    seed(backend);
    let failing = true;
    backend.override('GET /api/drops/trending', () => (failing ? errorResponse(500, 'Boom.') : trendingPage(backend)));
    const { user, client } = renderWithConfab(<DropsFeedScreen tab="trending" />, { backend });
    await act(() => client.login('alice', 'wonderland'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load drops');
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('5 drops trending now')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says one drop, not one drops', async () => {
    await setup('following', (backend) => seed(backend, 1));
    expect(await screen.findByText('1 drop from chats you follow')).toBeInTheDocument();
  });

  it('says so when a feed is empty', async () => {
    await setup('following', () => {});
    expect(await screen.findByText('0 drops from chats you follow')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'No drops from chats you follow yet.' })).toBeInTheDocument();
    expect(screen.getByText('Follow chats on Discover and their drops appear here.')).toBeInTheDocument();
  });

  it('lists chats to follow on Discover; Follow turns to Following', async () => {
    const { user, backend } = await setup('discover');
    const section = await screen.findByRole('region', { name: 'Chats to follow' });
    const item = within(section).getByRole('listitem');
    expect(item).toHaveTextContent('Design');
    expect(item).toHaveTextContent('2 drops · 0 followers');
    await user.click(within(item).getByRole('button', { name: 'Follow Design' }));
    expect(await within(item).findByRole('button', { name: 'Following Design' })).toBeInTheDocument();
    expect(backend.dropData.follows.has('chat_design_01')).toBe(true);
    expect(item).toHaveTextContent('1 follower');
  });

  it('badges Following with the unread count, and shows live drops behind New drops', async () => {
    const backend = createFakeBackend({ users: [alice] });
    seed(backend);
    backend.dropData.notificationCount = 2;
    const { client, user, rerender } = renderWithConfab(<DropsFeedScreen tab="trending" />, { backend });
    await act(() => client.login('alice', 'wonderland'));
    const tabs = screen.getByRole('navigation', { name: 'Feeds' });
    expect(await within(tabs).findByRole('link', { name: 'Following (2 new)' })).toBeInTheDocument();

    // Opening Following shows them and marks them read.
    rerender(<DropsFeedScreen tab="following" />);
    await screen.findByText('3 drops from chats you follow');
    await waitFor(() => expect(within(tabs).getByRole('link', { name: 'Following' })).toBeInTheDocument());
    expect(backend.requests.some((request) => request.route === 'POST /api/drops/notifications/read')).toBe(true);

    // A drop_published frame (driven through the store here; the client test covers the frame).
    const fresh = buildFakeDrop({ title: 'Fresh from Launch', chat_id: 'chat_launch_01', chat_name: 'Launch' });
    act(() => client.drops.store.setState((state) => ({ newDrops: [fresh], notificationCount: state.notificationCount + 1 })));
    const live = screen.getAllByRole('status').find((region) => region.classList.contains('cf-drops__live'))!;
    expect(within(live).getByRole('button', { name: 'New drops' })).toBeInTheDocument();
    expect(within(tabs).getByRole('link', { name: 'Following (1 new)' })).toBeInTheDocument();
    await user.click(within(live).getByRole('button', { name: 'New drops' }));
    expect(titles()[0]).toBe('Fresh from Launch');
    expect(screen.getByText('4 drops from chats you follow')).toBeInTheDocument();
    expect(within(live).queryByRole('button')).not.toBeInTheDocument();
    expect(within(tabs).getByRole('link', { name: 'Following' })).toBeInTheDocument();
  });
});

describe('DropsFeedScreen: Saved', () => {
  /** Alice bookmarks drops through the client, in this order; the Saved tab opens after. */
  async function openSaved(backend: FakeBackend, bookmarkTitles: string[]) {
    const result = renderWithConfab(<DropsFeedScreen tab="following" />, { backend });
    await act(() => result.client.login('alice', 'wonderland'));
    for (const title of bookmarkTitles) {
      const drop = backend.dropData.drops.find((candidate) => candidate.title === title)!;
      await act(() => result.client.drops.toggleBookmark(drop.id));
    }
    result.rerender(<DropsFeedScreen tab="bookmarks" />);
    return result;
  }

  it('lists my bookmarked drops, newest bookmark first, with Load More', async () => {
    const backend = createFakeBackend({ users: [alice] });
    seed(backend, 22);
    const { user } = await openSaved(backend, ['Design system', 'Launch note 1', ...Array.from({ length: 20 }, (_, index) => `Launch note ${index + 3}`)]);
    expect(await screen.findByText('22 saved drops')).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Feeds' });
    expect(within(tabs).getByRole('link', { name: 'Saved' })).toHaveAttribute('aria-current', 'page');
    expect(titles()).toHaveLength(20);
    expect(titles()[0]).toBe('Launch note 22');
    await user.click(screen.getByRole('button', { name: 'Load More Drops' }));
    await waitFor(() => expect(titles()).toHaveLength(22));
    expect(titles().slice(-2)).toEqual(['Launch note 1', 'Design system']);
    expect(backend.requests.map((request) => request.route).filter((route) => route === 'GET /api/drops/bookmarks')).toHaveLength(2);
  });

  it('takes a drop un-bookmarked there out of the list, keeping keyboard focus in the feed', async () => {
    const backend = createFakeBackend({ users: [alice] });
    seed(backend);
    const { user } = await openSaved(backend, ['Launch note 1', 'Design system']);
    expect(await screen.findByText('2 saved drops')).toBeInTheDocument();
    const card = screen.getByRole('article', { name: 'Design system' });
    const bookmark = within(card).getByRole('button', { name: 'Bookmark' });
    expect(bookmark).toHaveAttribute('aria-pressed', 'true');
    bookmark.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Design system' })).not.toBeInTheDocument());
    expect(screen.getByText('1 saved drop')).toBeInTheDocument();
    expect(titles()).toEqual(['Launch note 1']);
    expect(screen.getByRole('link', { name: 'Launch note 1' })).toHaveFocus();
    // The last one: the empty state, focus on the status line.
    await user.click(within(screen.getByRole('article', { name: 'Launch note 1' })).getByRole('button', { name: 'Bookmark' }));
    expect(await screen.findByRole('heading', { name: 'No saved drops yet.' })).toBeInTheDocument();
    expect(screen.getByText('Bookmark a drop and it is kept here.')).toBeInTheDocument();
    expect(screen.getByText('0 saved drops')).toHaveFocus();
  });

  it('says so when nothing is saved yet', async () => {
    await setup('bookmarks');
    expect(await screen.findByRole('heading', { name: 'No saved drops yet.' })).toBeInTheDocument();
    expect(screen.getByText('0 saved drops')).toBeInTheDocument();
  });
});

/** Page 1 of trending, as the fake's own route would answer it. */
function trendingPage(backend: FakeBackend): Response {
  const drops = [...backend.dropData.drops].sort((a, b) => b.like_count - a.like_count);
  return new Response(JSON.stringify({ drops, has_more: false, total_count: drops.length, snapshot: 'snapshot1' }), { status: 200, headers: { 'Content-Type': 'application/json' } });
}
