import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfabClient } from '../client/ConfabClient';
import { connectedClient } from '../testing/connectedClient';
import { buildWireDrop, createFakeDrops, type FakeDrops } from '../testing/fakeDrops';
import { startFakeGateway, type FakeGateway } from '../testing/fakeGateway';
import { startFakeServer, type FakeServer } from '../testing/fakeServer';
import { settle, waitUntil } from '../testing/waitUntil';

let server: FakeServer;
let drops: FakeDrops;
let client: ConfabClient;

beforeEach(async () => {
  server = await startFakeServer();
  drops = createFakeDrops();
  client = new ConfabClient({ baseUrl: server.url, fetch: drops.fetch(globalThis.fetch), realtime: { autoConnect: false } });
  await client.login('alice', 'correct-horse');
});

afterEach(async () => {
  client.logout();
  await server.close();
});

const state = () => client.drops.store.getState();
const routes = () => drops.requests.map((request) => request.route);

/** `count` drops in a list, newest first. */
function seedList(kind: 'feed' | 'trending' | 'discover' | 'bookmarks', count: number, overrides = {}) {
  const seeded = Array.from({ length: count }, () => buildWireDrop(overrides));
  drops.drops.push(...seeded);
  drops.lists[kind].push(...seeded.map((drop) => drop.id));
  return seeded;
}

describe('the feed service (spec §7)', () => {
  it('asks each list for a page of 20 with the bearer token, and answers the page', async () => {
    const [first] = seedList('feed', 2);
    const page = await client.drops.getFeed(1);
    expect(page).toMatchObject({ has_more: false, total_count: 2, snapshot: 'snap1' });
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
  ] as const)('%s rejects with the spec §8 text, keeping the status and the server message', async (method, text) => {
    drops.failNext = { status: 503, message: 'Down for maintenance.' };
    const failure = await client.drops[method](1).catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'ConfabError', message: text, status: 503, serverMessage: 'Down for maintenance.' });
  });

  it('words every other failure with its spec §8 text', async () => {
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
      drops.failNext = { status: 500, message: 'Boom.' };
      await expect(call()).rejects.toMatchObject({ message: text, status: 500 });
    }
  });

  it('getDrop reads a drop by slug or id; an unknown one rejects with 404', async () => {
    const drop = buildWireDrop({ slug: 'our-launch-plan' });
    drops.drops.push(drop);
    await expect(client.drops.getDrop('our-launch-plan')).resolves.toEqual(drop);
    await expect(client.drops.getDrop(drop.id)).resolves.toEqual(drop);
    await expect(client.drops.getDrop('gone')).rejects.toMatchObject({ status: 404, message: 'Failed to fetch drop', serverMessage: 'Drop not found' });
  });
});

describe('the feed state', () => {
  it('loads page 1 of a tab, then appends pages cut from its snapshot while has_more', async () => {
    seedList('trending', 45);
    await client.drops.loadFeed('trending');
    expect(state().feed).toMatchObject({ tab: 'trending', page: 1, has_more: true, total_count: 45, loading: false, error: null, snapshot: 'snap1' });
    expect(state().feed.drops).toHaveLength(20);
    // A drop arriving meanwhile does not shift the pages of the snapshot.
    drops.lists.trending.unshift(...seedList('bookmarks', 1).map((drop) => drop.id));
    await client.drops.loadMore();
    await client.drops.loadMore();
    expect(state().feed).toMatchObject({ page: 3, has_more: false, total_count: 45 });
    expect(new Set(state().feed.drops.map((drop) => drop.id)).size).toBe(45);
    expect(routes().slice(-2)).toEqual(['GET /api/drops/trending?page=2&per_page=20&snapshot=snap1', 'GET /api/drops/trending?page=3&per_page=20&snapshot=snap1']);
    // Nothing more to load: no request.
    await client.drops.loadMore();
    expect(routes()).toHaveLength(3);
  });

  it('switching tabs starts again at page 1, and a late answer of the old tab is dropped', async () => {
    seedList('feed', 25);
    seedList('discover', 3);
    await client.drops.loadFeed('following');
    await client.drops.loadMore();
    const release = drops.hold();
    const following = client.drops.loadFeed('following');
    const discover = client.drops.loadFeed('discover');
    expect(state().feed).toMatchObject({ tab: 'discover', page: 0, drops: [], loading: true });
    release();
    await Promise.all([following, discover]);
    expect(state().feed).toMatchObject({ tab: 'discover', page: 1, total_count: 3 });
  });

  it('keeps the failure text for the screen, and clears it on the next load', async () => {
    drops.failNext = { status: 500, message: 'Boom.' };
    await expect(client.drops.loadFeed('following')).rejects.toThrow('Failed to fetch feed');
    expect(state().feed).toMatchObject({ loading: false, error: 'Failed to fetch feed' });
    await client.drops.loadFeed('following');
    expect(state().feed.error).toBeNull();
  });
});

describe('like and bookmark (spec §4)', () => {
  it('flips at once, takes the server count, and blocks a second toggle while one is in flight', async () => {
    const [drop] = seedList('feed', 1, { like_count: 4 });
    await client.drops.loadFeed('following');
    const release = drops.hold();
    const liking = client.drops.toggleLike(drop!.id);
    expect(state().feed.drops[0]).toMatchObject({ is_liked: true, like_count: 5 });
    expect(client.drops.isPending('like', drop!.id)).toBe(true);
    await expect(client.drops.toggleLike(drop!.id)).resolves.toBeNull();
    release();
    await expect(liking).resolves.toEqual({ liked: true, like_count: 5 });
    expect(routes().filter((route) => route.endsWith('/like'))).toHaveLength(1);
    expect(client.drops.isPending('like', drop!.id)).toBe(false);
    // The server's count wins (someone else liked it meanwhile).
    drops.drops[0]!.like_count = 9;
    await client.drops.toggleLike(drop!.id);
    expect(state().feed.drops[0]).toMatchObject({ is_liked: false, like_count: 8 });
  });

  it('rolls back on failure, in every view of the drop', async () => {
    const [drop] = seedList('feed', 1, { like_count: 2, is_bookmarked: true });
    await client.drops.loadFeed('following');
    await client.drops.loadDrop(drop!.slug);
    drops.failNext = { status: 500, message: 'Boom.' };
    await expect(client.drops.toggleLike(drop!.id)).rejects.toThrow('Failed to toggle like');
    expect(state().feed.drops[0]).toMatchObject({ is_liked: false, like_count: 2 });
    expect(state().drop.drop).toMatchObject({ is_liked: false, like_count: 2 });
    drops.failNext = { status: 500, message: 'Boom.' };
    await expect(client.drops.toggleBookmark(drop!.id)).rejects.toThrow('Failed to toggle bookmark');
    expect(state().drop.drop?.is_bookmarked).toBe(true);
    await client.drops.toggleBookmark(drop!.id);
    expect(state().drop.drop?.is_bookmarked).toBe(false);
    expect(state().feed.drops[0]?.is_bookmarked).toBe(false);
    expect(state().pending).toEqual({});
  });
});

describe('chats, drops and notifications', () => {
  const chat = { id: 'chat1', name: 'Launch', description: '', avatar: 'L', is_following: false, follower_count: 1, drop_count: 1, is_participant: false };

  it('loads a chat with its drops, follows and unfollows it', async () => {
    drops.chats.push({ ...chat });
    drops.drops.push(buildWireDrop({ chat_id: 'chat1' }));
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
    drops.discoverChats.push({ id: 'chat2', name: 'Design', avatar: 'D', drop_count: 3, follower_count: 0, last_drop_at: '2026-01-01 00:00:00.000Z' });
    await expect(client.drops.discoverChats()).resolves.toHaveLength(1);
    expect(state().discover).toMatchObject({ loading: false, error: null, chats: [{ name: 'Design' }] });
  });

  it('creates a drop trimmed, and refuses an invalid one without a request (spec §5)', async () => {
    await expect(client.drops.createDrop({ chat_id: 'chat1', title: '  ', content: 'x' })).rejects.toMatchObject({ status: 400, message: 'Please enter a title' });
    await expect(client.drops.createDrop({ chat_id: 'chat1', title: 'x'.repeat(101), content: 'x' })).rejects.toMatchObject({ message: 'Title must be at most 100 characters' });
    await expect(client.drops.createDrop({ chat_id: 'chat1', title: 'x', content: 'y'.repeat(2001) })).rejects.toMatchObject({ message: 'Content must be at most 2000 characters' });
    expect(drops.requests).toHaveLength(0);
    const created = await client.drops.createDrop({ chat_id: 'chat1', title: '  Launch plan ', content: '\nWe ship on Monday.  ' });
    expect(drops.requests[0]).toEqual({ route: 'POST /api/drops', body: { chat_id: 'chat1', title: 'Launch plan', content: 'We ship on Monday.' } });
    expect(created.slug).toBe('launch-plan');
    drops.failNext = { status: 404, message: 'Chat not found' };
    await expect(client.drops.createDrop({ chat_id: 'nope', title: 'a', content: 'b' })).rejects.toMatchObject({ message: 'Failed to create drop', serverMessage: 'Chat not found' });
  });

  it('deletes a drop from every list', async () => {
    const [drop] = seedList('feed', 2);
    await client.drops.loadFeed('following');
    await client.drops.loadDrop(drop!.id);
    await client.drops.deleteDrop(drop!.id);
    expect(state().feed).toMatchObject({ total_count: 1 });
    expect(state().feed.drops.map((each) => each.id)).not.toContain(drop!.id);
    expect(state().drop).toMatchObject({ drop: null, notFound: true });
  });

  it('counts notifications; the Following feed marks them read', async () => {
    drops.notificationCount = 3;
    await client.drops.notifications();
    expect(state().notificationCount).toBe(3);
    await client.drops.loadFeed('following');
    expect(state().notificationCount).toBe(0);
    await waitUntil(() => routes().includes('POST /api/drops/notifications/read'), 'the read mark');
  });

  it('a new session starts without the old one’s drops', async () => {
    seedList('feed', 1);
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
    live = await connectedClient(server, gateway, { fetch: drops.fetch(globalThis.fetch) });
  });
  afterEach(async () => {
    live.logout();
    await gateway.close();
  });

  const liveState = () => live.drops.store.getState();

  it("puts someone else's new drop behind 'New drops' and bumps the badge, without a request", async () => {
    const [old] = seedList('feed', 1);
    await live.drops.loadFeed('following');
    await settle();
    const requestsBefore = drops.requests.length;
    const fresh = buildWireDrop({ title: 'Fresh' });
    gateway.push({ type: 'drop_published', drop: fresh });
    await waitUntil(() => liveState().newDrops.length === 1, 'the new drop');
    expect(liveState().notificationCount).toBe(1);
    // The same frame twice, and the author's own drop, are not news.
    gateway.push({ type: 'drop_published', drop: fresh });
    gateway.push({ type: 'drop_published', drop: buildWireDrop({ author_id: 'alice0000000001' }) });
    await settle();
    expect(liveState().newDrops).toHaveLength(1);
    expect(liveState().notificationCount).toBe(1);
    expect(drops.requests).toHaveLength(requestsBefore);
    live.drops.showNewDrops();
    expect(liveState().feed.drops.map((drop) => drop.title)).toEqual(['Fresh', old!.title]);
    expect(liveState()).toMatchObject({ newDrops: [], notificationCount: 0, feed: { total_count: 2 } });
  });

  it("adds a new drop to the open chat's drops", async () => {
    drops.chats.push({ id: 'chat1', name: 'Launch', description: '', avatar: 'L', is_following: true, follower_count: 1, drop_count: 0, is_participant: true });
    await live.drops.loadChatDrops('chat1');
    gateway.push({ type: 'drop_published', drop: buildWireDrop({ chat_id: 'chat1', title: 'Live one' }) });
    await waitUntil(() => liveState().chatDrops.drops.length === 1, 'the chat drop');
    expect(liveState().chatDrops.drops[0]?.title).toBe('Live one');
  });
});
