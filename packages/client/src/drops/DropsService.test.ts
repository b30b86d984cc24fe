import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfabClient } from '../client/ConfabClient';
import { connectedClient } from '../testing/connectedClient';
import type { WireDrop } from '../protocol';
import { buildFakeDrop } from '../testing/fakeDrops';
import { startFakeGateway, type FakeGateway } from '../testing/fakeGateway';
import { startFakeServer, type FakeServer } from '../testing/fakeServer';
import { settle, waitUntil } from '../testing/waitUntil';

const alice = 'alice0000000001';
let server: FakeServer;
let client: ConfabClient;

beforeEach(async () => {
  server = await startFakeServer();
  // Alice follows Launch (the Following feed); Design is a chat she does not follow (Discover).
  server.addChat({ id: 'chat1', name: 'Launch', participants: [alice] });
  server.addChat({ id: 'chat2', name: 'Design', participants: ['bob000000000001'] });
  server.backend.dropData.follows.add('chat1');
  client = new ConfabClient({ baseUrl: server.url, realtime: { autoConnect: false } });
  await client.login('alice', 'correct-horse');
});

afterEach(async () => {
  client.logout();
  await server.close();
});

const state = () => client.drops.store.getState();
const dropRequests = () => server.requests.filter((request) => /^\/api\/(drops|follow|discover)(\/|$|\?)/.test(request.path));
const routes = () => dropRequests().map((request) => `${request.method} ${request.path}`);

let seeded = 0;
/** `count` drops of a chat ('chat1', followed, unless given), each newer than the last; newest first. */
function seedDrops(count: number, overrides: Partial<WireDrop> = {}): WireDrop[] {
  const added = Array.from({ length: count }, () => server.backend.addDrop({ title: `Drop ${(seeded += 1)}`, chat_id: 'chat1', ...overrides }));
  return added.reverse();
}

describe('the feed service (docs/PRODUCT.md §7)', () => {
  it('asks each list for a page of 20 with the bearer token, and answers the page', async () => {
    const [first] = seedDrops(2);
    const page = await client.drops.getFeed(1);
    expect(page).toMatchObject({ has_more: false, total_count: 2, snapshot: 'snapshot1' });
    expect(page.drops[0]).toEqual(first);
    await client.drops.getTrending(2, { snapshot: 'abc' });
    await client.drops.getDiscover();
    await client.drops.bookmarks(3, { perPage: 5 });
    expect(routes()).toEqual([
      'GET /api/drops/feed?page=1&per_page=20',
      'GET /api/drops/trending?page=2&per_page=20&snapshot=abc',
      'GET /api/drops/discover?page=1&per_page=20',
      'GET /api/drops/bookmarks?page=3&per_page=5',
    ]);
  });

  it.each([
    ['getFeed', 'Failed to fetch feed'],
    ['getTrending', 'Failed to fetch trending drops'],
    ['getDiscover', 'Failed to fetch discovery drops'],
  ] as const)('%s rejects with the docs/PRODUCT.md §8 text, keeping the status and the server message', async (method, text) => {
    server.backend.failNext(503, 'Down for maintenance.');
    const failure = await client.drops[method](1).catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'ConfabError', message: text, status: 503, serverMessage: 'Down for maintenance.' });
  });

  it('words every other failure with its docs/PRODUCT.md §8 text', async () => {
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => client.drops.getChatDrops('chat1'), 'Failed to fetch chat drops'],
      [() => client.drops.getDrop('nope'), 'Failed to fetch drop'],
      [() => client.drops.toggleLike('d1'), 'Failed to toggle like'],
      [() => client.drops.toggleBookmark('d1'), 'Failed to toggle bookmark'],
      [() => client.drops.discoverChats(), 'Failed to discover chats'],
      [() => client.drops.follow('chat1'), 'Failed to follow chat'],
      [() => client.drops.unfollow('chat1'), 'Failed to unfollow chat'],
      [() => client.drops.createDrop({ chat_id: 'chat1', title: 'T', content: 'C' }), 'Failed to create drop'],
      [() => client.drops.notifications(), 'Failed to fetch notifications'],
    ];
    for (const [call, text] of cases) {
      server.backend.failNext(500, 'Boom.');
      await expect(call()).rejects.toMatchObject({ message: text, status: 500 });
    }
  });

  it('getDrop reads a drop by slug or id; an unknown one rejects with 404', async () => {
    const drop = server.backend.addDrop({ title: 'Our launch plan' });
    await expect(client.drops.getDrop('our-launch-plan')).resolves.toEqual(drop);
    await expect(client.drops.getDrop(drop.id)).resolves.toEqual(drop);
    await expect(client.drops.getDrop('gone')).rejects.toMatchObject({ status: 404, message: 'Failed to fetch drop', serverMessage: 'Drop not found' });
  });
});

describe('the feed state', () => {
  it('loads page 1 of a tab, then appends pages cut from its snapshot while has_more', async () => {
    seedDrops(45);
    await client.drops.loadFeed('trending');
    expect(state().feed).toMatchObject({ tab: 'trending', page: 1, has_more: true, total_count: 45, loading: false, error: null, snapshot: 'snapshot1' });
    expect(state().feed.drops).toHaveLength(20);
    // A drop arriving meanwhile (at the top of the list) does not shift the pages of the snapshot.
    seedDrops(1, { like_count: 100 });
    await client.drops.loadMore();
    await client.drops.loadMore();
    expect(state().feed).toMatchObject({ page: 3, has_more: false, total_count: 45 });
    expect(new Set(state().feed.drops.map((drop) => drop.id)).size).toBe(45);
    expect(routes().slice(-2)).toEqual(['GET /api/drops/trending?page=2&per_page=20&snapshot=snapshot1', 'GET /api/drops/trending?page=3&per_page=20&snapshot=snapshot1']);
    // Nothing more to load: no request.
    await client.drops.loadMore();
    expect(routes()).toHaveLength(3);
  });

  it('switching tabs starts again at page 1, and a late answer of the old tab is dropped', async () => {
    seedDrops(25);
    seedDrops(3, { chat_id: 'chat2', chat_name: 'Design' });
    await client.drops.loadFeed('following');
    await client.drops.loadMore();
    const release = server.backend.hold();
    const following = client.drops.loadFeed('following');
    const discover = client.drops.loadFeed('discover');
    expect(state().feed).toMatchObject({ tab: 'discover', page: 0, drops: [], loading: true });
    release();
    await Promise.all([following, discover]);
    expect(state().feed).toMatchObject({ tab: 'discover', page: 1, total_count: 3 });
  });

  it('keeps the failure text for the screen, and clears it on the next load', async () => {
    server.backend.failNext(500, 'Boom.');
    await expect(client.drops.loadFeed('following')).rejects.toThrow('Failed to fetch feed');
    expect(state().feed).toMatchObject({ loading: false, error: 'Failed to fetch feed' });
    await client.drops.loadFeed('following');
    expect(state().feed.error).toBeNull();
  });
});

describe('like and bookmark (docs/PRODUCT.md §4)', () => {
  it('flips at once, takes the server count, and blocks a second toggle while one is in flight', async () => {
    const [drop] = seedDrops(1, { like_count: 4 });
    await client.drops.loadFeed('following');
    const release = server.backend.hold();
    const liking = client.drops.toggleLike(drop!.id);
    expect(state().feed.drops[0]).toMatchObject({ is_liked: true, like_count: 5 });
    expect(client.drops.isPending('like', drop!.id)).toBe(true);
    await expect(client.drops.toggleLike(drop!.id)).resolves.toBeNull();
    release();
    await expect(liking).resolves.toEqual({ liked: true, like_count: 5 });
    expect(routes().filter((route) => route.endsWith('/like'))).toHaveLength(1);
    expect(client.drops.isPending('like', drop!.id)).toBe(false);
    // The server's count wins (someone else liked it meanwhile).
    server.backend.dropData.drops[0]!.like_count = 9;
    await client.drops.toggleLike(drop!.id);
    expect(state().feed.drops[0]).toMatchObject({ is_liked: false, like_count: 8 });
  });

  it('rolls back on failure, in every view of the drop', async () => {
    const [drop] = seedDrops(1, { like_count: 2, is_bookmarked: true });
    await client.drops.loadFeed('following');
    await client.drops.loadDrop(drop!.slug);
    server.backend.failNext(500, 'Boom.');
    await expect(client.drops.toggleLike(drop!.id)).rejects.toThrow('Failed to toggle like');
    expect(state().feed.drops[0]).toMatchObject({ is_liked: false, like_count: 2 });
    expect(state().drop.drop).toMatchObject({ is_liked: false, like_count: 2 });
    server.backend.failNext(500, 'Boom.');
    await expect(client.drops.toggleBookmark(drop!.id)).rejects.toThrow('Failed to toggle bookmark');
    expect(state().drop.drop?.is_bookmarked).toBe(true);
    await client.drops.toggleBookmark(drop!.id);
    expect(state().drop.drop?.is_bookmarked).toBe(false);
    expect(state().feed.drops[0]?.is_bookmarked).toBe(false);
    expect(state().pending).toEqual({});
  });
});

describe('the Saved tab (bookmarks)', () => {
  it('loads my bookmarks as a feed tab, pages them, and drops one un-bookmarked there once the server agrees', async () => {
    const drops = seedDrops(23, { is_bookmarked: true });
    await client.drops.loadFeed('bookmarks');
    expect(state().feed).toMatchObject({ tab: 'bookmarks', page: 1, has_more: true, total_count: 23 });
    await client.drops.loadMore();
    expect(state().feed.drops).toHaveLength(23);
    expect(routes()).toEqual(['GET /api/drops/bookmarks?page=1&per_page=20', 'GET /api/drops/bookmarks?page=2&per_page=20&snapshot=snapshot1']);
    const target = drops[0]!;
    const release = server.backend.hold();
    const unbookmarking = client.drops.toggleBookmark(target.id);
    // At once: the button shows it un-bookmarked; it stays listed until the server answers.
    expect(state().feed.drops[0]).toMatchObject({ id: target.id, is_bookmarked: false });
    release();
    await expect(unbookmarking).resolves.toEqual({ bookmarked: false });
    expect(state().feed.drops.map((drop) => drop.id)).not.toContain(target.id);
    expect(state().feed.total_count).toBe(22);
    // A refused un-bookmark keeps it listed, bookmarked.
    const kept = drops[1]!;
    server.backend.failNext(500, 'Boom.');
    await expect(client.drops.toggleBookmark(kept.id)).rejects.toThrow('Failed to toggle bookmark');
    expect(state().feed.drops[0]).toMatchObject({ id: kept.id, is_bookmarked: true });
  });

  it('leaves other tabs alone when a drop is un-bookmarked there', async () => {
    const [drop] = seedDrops(1, { is_bookmarked: true });
    await client.drops.loadFeed('following');
    await client.drops.toggleBookmark(drop!.id);
    expect(state().feed.drops).toHaveLength(1);
    expect(state().feed.drops[0]?.is_bookmarked).toBe(false);
  });
});

describe('chats, drops and notifications', () => {
  it('loads a chat with its drops, follows and unfollows it', async () => {
    // Launch as someone else's chat with one follower: Alice is neither in it nor following it.
    const launch = server.backend.chats.find((chat) => chat.id === 'chat1');
    if (launch) launch.participants = ['bob000000000001'];
    server.backend.dropData.follows.delete('chat1');
    server.backend.dropData.otherFollowers.set('chat1', 1);
    seedDrops(1);
    await client.drops.loadChatDrops('chat1');
    expect(state().chatDrops).toMatchObject({ chatId: 'chat1', chat: { name: 'Launch', is_following: false }, loading: false, notFound: false });
    expect(state().chatDrops.drops).toHaveLength(1);
    await expect(client.drops.follow('chat1')).resolves.toEqual({ chat_id: 'chat1', following: true, follower_count: 2 });
    expect(state().chatDrops.chat).toMatchObject({ is_following: true, follower_count: 2 });
    expect(state().following['chat1']).toBe(true);
    await client.drops.unfollow('chat1');
    expect(state().chatDrops.chat).toMatchObject({ is_following: false, follower_count: 1 });
    expect(routes().slice(-2)).toEqual(['POST /api/follow/chat1', 'DELETE /api/follow/chat1']);
    await expect(client.drops.loadChatDrops('elsewhere')).rejects.toMatchObject({ status: 404 });
    expect(state().chatDrops).toMatchObject({ chatId: 'elsewhere', notFound: true, error: null });
  });

  it('lists chats to discover', async () => {
    seedDrops(3, { chat_id: 'chat2', chat_name: 'Design' });
    await expect(client.drops.discoverChats()).resolves.toHaveLength(1);
    expect(state().discover).toMatchObject({ loading: false, error: null, chats: [{ name: 'Design' }] });
  });

  it('creates a drop trimmed, and refuses an invalid one without a request (docs/PRODUCT.md §5)', async () => {
    await expect(client.drops.createDrop({ chat_id: 'chat1', title: '  ', content: 'x' })).rejects.toMatchObject({ status: 400, message: 'Please enter a title' });
    await expect(client.drops.createDrop({ chat_id: 'chat1', title: 'x'.repeat(101), content: 'x' })).rejects.toMatchObject({ message: 'Title must be at most 100 characters' });
    await expect(client.drops.createDrop({ chat_id: 'chat1', title: 'x', content: 'y'.repeat(2001) })).rejects.toMatchObject({ message: 'Content must be at most 2000 characters' });
    expect(dropRequests()).toHaveLength(0);
    const created = await client.drops.createDrop({ chat_id: 'chat1', title: '  Launch plan ', content: '\nWe ship on Monday.  ' });
    expect(dropRequests()[0]).toMatchObject({ method: 'POST', path: '/api/drops', body: { chat_id: 'chat1', title: 'Launch plan', content: 'We ship on Monday.' } });
    expect(created.slug).toBe('launch-plan');
    await expect(client.drops.createDrop({ chat_id: 'nope', title: 'a', content: 'b' })).rejects.toMatchObject({ message: 'Failed to create drop', serverMessage: 'Chat not found' });
  });

  it('deletes a drop from every list', async () => {
    const [drop] = seedDrops(2);
    await client.drops.loadFeed('following');
    await client.drops.loadDrop(drop!.id);
    await client.drops.deleteDrop(drop!.id);
    expect(state().feed).toMatchObject({ total_count: 1 });
    expect(state().feed.drops.map((each) => each.id)).not.toContain(drop!.id);
    expect(state().drop).toMatchObject({ drop: null, notFound: true });
  });

  it('counts notifications; the Following feed marks them read', async () => {
    server.backend.dropData.notificationCount = 3;
    await client.drops.notifications();
    expect(state().notificationCount).toBe(3);
    await client.drops.loadFeed('following');
    expect(state().notificationCount).toBe(0);
    await waitUntil(() => routes().includes('POST /api/drops/notifications/read'), 'the read mark');
  });

  it('a new session starts without the old one’s drops', async () => {
    seedDrops(1);
    await client.drops.loadFeed('following');
    client.logout();
    expect(state().feed.drops).toEqual([]);
  });
});

describe('drop_published', () => {
  let gateway: FakeGateway;
  let live: ConfabClient;

  beforeEach(async () => {
    gateway = await startFakeGateway();
    live = await connectedClient(server, gateway);
  });
  afterEach(async () => {
    live.logout();
    await gateway.close();
  });

  const liveState = () => live.drops.store.getState();

  it("puts someone else's new drop behind 'New drops' and bumps the badge, without a request", async () => {
    const [old] = seedDrops(1);
    await live.drops.loadFeed('following');
    await settle();
    const requestsBefore = dropRequests().length;
    const fresh = buildFakeDrop({ title: 'Fresh', published_at: '2026-02-01 00:00:00.000Z' });
    gateway.push({ type: 'drop_published', drop: fresh });
    await waitUntil(() => liveState().newDrops.length === 1, 'the new drop');
    expect(liveState().notificationCount).toBe(1);
    // The same frame twice, and the author's own drop, are not news.
    gateway.push({ type: 'drop_published', drop: fresh });
    gateway.push({ type: 'drop_published', drop: buildFakeDrop({ title: 'Mine', author_id: alice }) });
    await settle();
    expect(liveState().newDrops).toHaveLength(1);
    expect(liveState().notificationCount).toBe(1);
    expect(dropRequests()).toHaveLength(requestsBefore);
    live.drops.showNewDrops();
    expect(liveState().feed.drops.map((drop) => drop.title)).toEqual(['Fresh', old!.title]);
    expect(liveState()).toMatchObject({ newDrops: [], notificationCount: 0, feed: { total_count: 2 } });
  });

  it("adds a new drop to the open chat's drops", async () => {
    await live.drops.loadChatDrops('chat1');
    gateway.push({ type: 'drop_published', drop: buildFakeDrop({ chat_id: 'chat1', title: 'Live one' }) });
    await waitUntil(() => liveState().chatDrops.drops.length === 1, 'the chat drop');
    expect(liveState().chatDrops.drops[0]?.title).toBe('Live one');
  });
});
