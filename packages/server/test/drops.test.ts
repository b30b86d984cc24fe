import type { DropListAnswer, WireDrop } from '@confab/client/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { createChat, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket } from './support/wsClient';

/**
 * Drops on a real server (docs/CONTRACTS.md, Drops): publishing and its rules, derived fields,
 * unique views on a test clock, exact likes under concurrency, follows, the feeds over snapshots,
 * discover, notifications and the live announcement. Every case runs on SQLite and PostgreSQL.
 */
const variants = await databaseVariants();

describe.each(variants)('drops ($name)', (variant) => {
  let testServer: TestServer;
  let alice: RegisteredUser;
  let bob: RegisteredUser;
  let carol: RegisteredUser;
  let chatId: string;
  let offsetMs = 0;

  const call = (method: string, path: string, user: RegisteredUser | undefined, body?: unknown) =>
    rawRequest(testServer.url, method, path, { ...(user === undefined ? {} : { token: user.pb.authStore.token }), ...(body === undefined ? {} : { body }) });
  const publish = async (user: RegisteredUser, chat: string, title: string, content = `Content of ${title}`) => {
    const response = await call('POST', '/api/drops', user, { chat_id: chat, title, content });
    if (response.status !== 200) throw new Error(`publish failed: ${response.status} ${response.text}`);
    return response.body as WireDrop;
  };

  beforeAll(async () => {
    testServer = await startTestServer(variant, { now: () => new Date(Date.now() + offsetMs) });
    alice = await registerUser(testServer);
    bob = await registerUser(testServer);
    carol = await registerUser(testServer);
    chatId = (await createChat(alice, { name: 'Garden club' })).id;
  });

  afterAll(async () => {
    await testServer?.close();
  });

  it('keeps every endpoint to signed-in people, and publishing to participants', async () => {
    const drop = await publish(alice, chatId, 'Visitors and outsiders');
    for (const [method, path] of [
      ['GET', '/api/drops/feed'], ['GET', '/api/drops/trending'], ['GET', '/api/drops/discover'], ['GET', '/api/drops/bookmarks'], ['GET', `/api/drops/${drop.id}`],
      ['POST', `/api/drops/${drop.id}/like`], ['POST', `/api/drops/${drop.id}/bookmark`], ['GET', `/api/drops/chat/${chatId}`],
      ['GET', '/api/discover/chats'], ['POST', `/api/follow/${chatId}`], ['GET', '/api/drops/notifications'], ['POST', '/api/drops'],
    ] as const) {
      expect((await call(method, path, undefined, method === 'POST' ? {} : undefined)).status, `${method} ${path}`).toBe(401);
    }
    const outsider = await call('POST', '/api/drops', bob, { chat_id: chatId, title: 'Sneaky', content: 'x' });
    expect(outsider.status).toBe(404);
    expect(outsider.body).toMatchObject({ message: 'Chat not found' });
    expect((await call('POST', '/api/drops', bob, { chat_id: 'nosuchchat00000', title: 'x', content: 'x' })).status).toBe(404);
    // Everyone signed in reads every drop.
    expect((await call('GET', `/api/drops/${drop.slug}`, bob)).body).toMatchObject({ id: drop.id, title: 'Visitors and outsiders', can_delete: false });
  });

  it('validates title and content at their limits, after trimming', async () => {
    const accepted = await publish(alice, chatId, ` ${'t'.repeat(100)} `, ` ${'c'.repeat(2000)} `);
    expect(accepted.title).toHaveLength(100);
    expect(accepted.content).toHaveLength(2000);
    for (const [title, content, field, code] of [
      ['t'.repeat(101), 'ok', 'title', 'validation_max_text_constraint'],
      ['ok', 'c'.repeat(2001), 'content', 'validation_max_text_constraint'],
      ['   ', 'ok', 'title', 'validation_required'],
      ['ok', ' \n\t ', 'content', 'validation_required'],
    ] as const) {
      const refused = await call('POST', '/api/drops', alice, { chat_id: chatId, title, content });
      expect(refused.status).toBe(400);
      expect((refused.body as { data: Record<string, { code: string }> }).data[field]).toMatchObject({ code });
    }
  });

  it('makes unique, URL-safe slugs that never shadow a feed path, whatever the title', async () => {
    const slugs = new Set<string>();
    for (const title of ['Feed', 'trending', 'Notifications', '../../etc/passwd', '<script>alert(1)</script>', '🎉🎉🎉', 'Same title', 'Same title', 'Café Déjà Vu']) {
      const drop = await publish(alice, chatId, title);
      expect(drop.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(['feed', 'trending', 'discover', 'chat', 'notifications', 'bookmarks']).not.toContain(drop.slug);
      expect(slugs.has(drop.slug)).toBe(false);
      slugs.add(drop.slug);
      expect((await call('GET', `/api/drops/${drop.slug}`, bob)).body).toMatchObject({ id: drop.id, title });
    }
    expect(slugs).toContain('same-title');
    expect(slugs).toContain('same-title-2');
    expect(slugs).toContain('cafe-deja-vu');
  });

  it('derives excerpt, reading time, tags and the featured image; stores the content as written', async () => {
    const words = Array.from({ length: 410 }, () => 'a').join(' ');
    const content = [
      '# Heading #notatag',
      '![a bad one](javascript:alert(1)) ![first](https://img.example/a.png "t") ![second](https://img.example/b.png)',
      'Tagged #Roses and #roses and #bees, not #123 or mail#x.',
      '<script>alert("x")</script>',
      words,
    ].join('\n\n');
    const drop = await publish(alice, chatId, 'Derived fields', content);
    expect(drop.content).toBe(content);
    expect(drop.tags).toEqual(['notatag', 'roses', 'bees']);
    expect(drop.featured_image).toBe('https://img.example/a.png');
    expect(drop.reading_time).toBe(3);
    expect(drop.excerpt.length).toBeLessThanOrEqual(200);
    // The markup goes (heading marks, images, the script); hashtags and punctuation stay as written.
    expect(drop.excerpt).toMatch(/^Heading #notatag Tagged #Roses and #roses and #bees, not #123 or mail#x\. a a /);
    expect(drop.excerpt).not.toMatch(/[<>!]|\]\(|alert/);
    const punctuated = await publish(alice, chatId, 'Punctuation', 'We ship on **2026-11-26**; press `shift-enter` for a new line.\n\nSee you _Monday_.');
    expect(punctuated.excerpt).toBe('We ship on 2026-11-26; press shift-enter for a new line. See you Monday.');
    expect(drop).toMatchObject({ chat_id: chatId, chat_name: 'Garden club', chat_avatar: 'G', like_count: 0, view_count: 0, is_liked: false, is_bookmarked: false, can_delete: true });
  });

  it('counts a view once per user per day, by the server clock', async () => {
    const drop = await publish(alice, chatId, 'Viewed');
    for (let index = 0; index < 3; index += 1) await call('GET', `/api/drops/${drop.id}`, bob);
    expect(((await call('GET', `/api/drops/${drop.id}`, carol)).body as WireDrop).view_count).toBe(2);
    offsetMs += 24 * 60 * 60 * 1000;
    expect(((await call('GET', `/api/drops/${drop.id}`, bob)).body as WireDrop).view_count).toBe(3);
    expect(((await call('GET', `/api/drops/${drop.id}`, bob)).body as WireDrop).view_count).toBe(3);
  });

  it('keeps like counts exact: 50 people at once, and one person toggling twice at once', async () => {
    const drop = await publish(alice, chatId, 'Popular');
    const people = await Promise.all(Array.from({ length: 50 }, () => registerUser(testServer)));
    const answers = await Promise.all(people.map((person) => call('POST', `/api/drops/${drop.id}/like`, person)));
    expect(answers.every((answer) => answer.status === 200 && (answer.body as { liked: boolean }).liked)).toBe(true);
    expect(((await call('GET', `/api/drops/${drop.id}`, bob)).body as WireDrop).like_count).toBe(50);
    const twice = await Promise.all([call('POST', `/api/drops/${drop.id}/like`, bob), call('POST', `/api/drops/${drop.id}/like`, bob)]);
    expect(twice.map((answer) => (answer.body as { liked: boolean }).liked).sort()).toEqual([false, true]);
    const after = (await call('GET', `/api/drops/${drop.id}`, bob)).body as WireDrop;
    const rows = await testServer.probe.rows('select count(*) as count from drop_likes where drop_id = $1', [drop.id]);
    expect(after.like_count).toBe(Number(rows[0]?.['count']));
    expect(after.like_count).toBe(after.is_liked ? 51 : 50);
    // Bookmarks toggle too.
    expect((await call('POST', `/api/drops/${drop.id}/bookmark`, bob)).body).toEqual({ bookmarked: true });
    expect(((await call('GET', '/api/drops/bookmarks', bob)).body as DropListAnswer).drops[0]?.id).toBe(drop.id);
    expect((await call('POST', `/api/drops/${drop.id}/bookmark`, bob)).body).toEqual({ bookmarked: false });
  });

  it('lists my bookmarks (the Saved tab) newest bookmark first, paged over a snapshot, each reader their own', async () => {
    const server = await startTestServer(variant, { now: () => new Date(Date.now() + offsetMs) });
    try {
      const owner = await registerUser(server);
      const reader = await registerUser(server);
      const chat = (await createChat(owner, { name: 'Saved things' })).id;
      const as = (user: RegisteredUser) => (method: string, path: string) => rawRequest(server.url, method, path, { token: user.pb.authStore.token });
      const ids: string[] = [];
      for (let index = 0; index < 7; index += 1) {
        ids.push(((await rawRequest(server.url, 'POST', '/api/drops', { token: owner.pb.authStore.token, body: { chat_id: chat, title: `Keep ${index}`, content: 'x' } })).body as WireDrop).id);
      }
      // Bookmarked oldest drop first, then the rest from newest: the order of bookmarking wins over publishing.
      const order = [ids[0]!, ...ids.slice(1).reverse()];
      for (const id of order) {
        expect((await as(reader)('POST', `/api/drops/${id}/bookmark`)).body).toEqual({ bookmarked: true });
        offsetMs += 1000;
      }
      const seen = await allPagesOn(server, reader, '/api/drops/bookmarks', 3, async () => undefined);
      expect(seen).toEqual([...order].reverse());
      expect(((await as(owner)('GET', '/api/drops/bookmarks')).body as DropListAnswer).total_count).toBe(0);
      // Taken back after page 1: it leaves the pages after it, and the next page 1.
      const first = (await as(reader)('GET', '/api/drops/bookmarks?per_page=3')).body as DropListAnswer;
      expect(first.drops.every((drop) => drop.is_bookmarked)).toBe(true);
      const onPageTwo = [...order].reverse()[3]!;
      expect((await as(reader)('POST', `/api/drops/${onPageTwo}/bookmark`)).body).toEqual({ bookmarked: false });
      const second = (await as(reader)('GET', `/api/drops/bookmarks?page=2&per_page=3&snapshot=${first.snapshot}`)).body as DropListAnswer;
      expect(second.drops.map((drop) => drop.id)).toEqual([...order].reverse().slice(4, 6));
      expect(((await as(reader)('GET', '/api/drops/bookmarks')).body as DropListAnswer).total_count).toBe(6);
    } finally {
      await server.close();
    }
  });

  it('lets the author or a chat admin delete a drop, nobody else', async () => {
    const bobsChat = (await createChat(bob, { name: 'Bob’s', participants: [carol.record.id] })).id;
    const carols = await publish(carol, bobsChat, 'Carol’s thought');
    expect((await call('DELETE', `/api/drops/${carols.id}`, alice)).status).toBe(404);
    const bobsOwn = await publish(bob, bobsChat, 'Bob’s own');
    expect((await call('DELETE', `/api/drops/${bobsOwn.id}`, carol)).status).toBe(404);
    expect((await call('DELETE', `/api/drops/${carols.id}`, bob)).status).toBe(204);
    expect((await call('DELETE', `/api/drops/${bobsOwn.id}`, bob)).status).toBe(204);
    expect((await call('GET', `/api/drops/${carols.id}`, bob)).status).toBe(404);
  });

  it('ranks trending by time-decayed likes: a fresh drop outranks an old one with the same likes', async () => {
    const server = await startTestServer(variant, { now: () => new Date(Date.now() + offsetMs) });
    try {
      const owner = await registerUser(server);
      const fans = await Promise.all(Array.from({ length: 3 }, () => registerUser(server)));
      const chat = (await createChat(owner, { name: 'Trends' })).id;
      const post = async (title: string) => (await rawRequest(server.url, 'POST', '/api/drops', { token: owner.pb.authStore.token, body: { chat_id: chat, title, content: 'x' } })).body as WireDrop;
      const like = async (drop: WireDrop, count: number) => {
        for (const fan of fans.slice(0, count)) await rawRequest(server.url, 'POST', `/api/drops/${drop.id}/like`, { token: fan.pb.authStore.token });
      };
      const old = await post('Old news');
      offsetMs += 48 * 60 * 60 * 1000;
      const fresh = await post('Fresh news');
      const quiet = await post('Quiet news');
      await like(old, 3);
      await like(fresh, 3);
      await like(quiet, 1);
      const trending = (await rawRequest(server.url, 'GET', '/api/drops/trending', { token: owner.pb.authStore.token })).body as DropListAnswer;
      expect(trending.drops.map((drop) => drop.title)).toEqual(['Fresh news', 'Quiet news', 'Old news']);
    } finally {
      await server.close();
    }
  });

  it('follows chats one creates, joins or asks to follow; feeds, discover and notifications follow suit', async () => {
    const server = await startTestServer(variant);
    try {
      const owner = await registerUser(server);
      const reader = await registerUser(server);
      const as = (user: RegisteredUser) => (method: string, path: string) => rawRequest(server.url, method, path, { token: user.pb.authStore.token });
      const chats = await Promise.all(['One', 'Two', 'Three'].map((name) => createChat(owner, { name })));
      for (const chat of chats) {
        for (let index = 0; index < 3; index += 1) {
          await rawRequest(server.url, 'POST', '/api/drops', { token: owner.pb.authStore.token, body: { chat_id: chat.id, title: `${chat['name']} ${index}`, content: 'x' } });
        }
      }
      // The creator follows the chats it made.
      expect(((await as(owner)('GET', '/api/drops/feed')).body as DropListAnswer).total_count).toBe(9);
      // Discover: chats the reader does not follow, at most 2 per chat on a page.
      const discover = (await as(reader)('GET', '/api/drops/discover?per_page=6')).body as DropListAnswer;
      const perChat = new Map<string, number>();
      for (const drop of discover.drops) perChat.set(drop.chat_id, (perChat.get(drop.chat_id) ?? 0) + 1);
      expect(Math.max(...perChat.values())).toBeLessThanOrEqual(2);
      // Nothing is lost to the rule: the third drop of each chat comes on a later page.
      const everyDiscover = await allPagesOn(server, reader, '/api/drops/discover', 6, async () => undefined);
      expect(new Set(everyDiscover).size).toBe(9);
      const widePages = await allPagesOn(server, reader, '/api/drops/discover', 20, async () => undefined);
      expect(widePages).toHaveLength(9);
      const discoverable = ((await as(reader)('GET', '/api/discover/chats')).body as { chats: { follower_count: number }[] }).chats;
      // Each chat is followed by its creator, who joined it.
      expect(discoverable.map((chat) => chat.follower_count)).toEqual([1, 1, 1]);
      const readerSocket = await authenticatedSocket(server.url, reader.pb.authStore.token);
      try {
        const first = chats[0]?.id ?? '';
        expect((await as(reader)('POST', `/api/follow/${first}`)).body).toMatchObject({ chat_id: first, following: true, follower_count: 2 });
        expect((await as(reader)('POST', `/api/follow/${first}`)).body).toMatchObject({ following: true, follower_count: 2 });
        const following = (await as(reader)('GET', '/api/drops/feed')).body as DropListAnswer;
        expect(following.drops.every((drop) => drop.chat_id === first)).toBe(true);
        expect(following.total_count).toBe(3);
        const discoverAfter = (await as(reader)('GET', '/api/drops/discover')).body as DropListAnswer;
        expect(discoverAfter.drops.some((drop) => drop.chat_id === first)).toBe(false);
        await as(reader)('POST', '/api/drops/notifications/read');
        // The next drop in a followed chat arrives live and counts as a notification.
        const published = await rawRequest(server.url, 'POST', '/api/drops', { token: owner.pb.authStore.token, body: { chat_id: first, title: 'Live one', content: 'x' } });
        const frame = await readerSocket.nextOfType('drop_published');
        // As the reader sees it: not liked or bookmarked yet, and not theirs to delete.
        expect(frame['drop']).toMatchObject({ id: (published.body as WireDrop).id, title: 'Live one', is_liked: false, is_bookmarked: false, can_delete: false });
        const notifications = (await as(reader)('GET', '/api/drops/notifications')).body as { count: number; drops: WireDrop[] };
        expect(notifications.count).toBe(1);
        expect(notifications.drops[0]?.title).toBe('Live one');
        expect((await as(reader)('DELETE', `/api/follow/${first}`)).body).toMatchObject({ following: false, follower_count: 1 });
        expect((await as(reader)('DELETE', `/api/follow/${first}`)).body).toMatchObject({ following: false });
        // A chat with no drops that one is not in cannot be followed or seen.
        const empty = await createChat(owner, { name: 'Private and dropless' });
        expect((await as(reader)('POST', `/api/follow/${empty.id}`)).status).toBe(404);
        expect((await as(reader)('GET', `/api/drops/chat/${empty.id}`)).status).toBe(404);
        const chatView = (await as(reader)('GET', `/api/drops/chat/${first}`)).body as { chat: Record<string, unknown>; drops: WireDrop[] };
        expect(chatView.chat).toMatchObject({ id: first, name: 'One', is_following: false, follower_count: 1, drop_count: 4, is_participant: false });
        expect(chatView.drops).toHaveLength(4);
      } finally {
        await readerSocket.close();
      }
    } finally {
      await server.close();
    }
  });

  it('pages every feed with each drop exactly once while likes and new drops arrive', async () => {
    const server = await startTestServer(variant);
    try {
      const owner = await registerUser(server);
      const fans = await Promise.all(Array.from({ length: 4 }, () => registerUser(server)));
      const chat = (await createChat(owner, { name: 'Busy' })).id;
      const post = (title: string) => rawRequest(server.url, 'POST', '/api/drops', { token: owner.pb.authStore.token, body: { chat_id: chat, title, content: 'x' } });
      const ids: string[] = [];
      for (let index = 0; index < 23; index += 1) ids.push(((await post(`Drop ${index}`)).body as WireDrop).id);
      let added = 0;
      const churn = async () => {
        // Between pages: likes reorder trending, and a new drop lands on top of following.
        await Promise.all(fans.map((fan, index) => rawRequest(server.url, 'POST', `/api/drops/${ids[(added * 3 + index) % ids.length]}/like`, { token: fan.pb.authStore.token })));
        await post(`Late ${added}`);
        added += 1;
      };
      for (const path of ['/api/drops/feed', '/api/drops/trending']) {
        const inSnapshot = ids.length + added;
        const seen = await allPagesOn(server, owner, path, 5, churn);
        expect(new Set(seen).size, path).toBe(seen.length);
        // Exactly what existed at page 1: later drops wait for the next page-1 load.
        expect(seen.length, path).toBe(inSnapshot);
        for (const id of ids) expect(seen, path).toContain(id);
      }
    } finally {
      await server.close();
    }
  });
});


/** Every page of a feed, passing page 1's snapshot along; `between` runs after each page. */
async function allPagesOn(server: TestServer, user: RegisteredUser, path: string, perPage: number, between: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  let page = 1;
  let snapshot = '';
  for (;;) {
    const query = `page=${page}&per_page=${perPage}${snapshot === '' ? '' : `&snapshot=${snapshot}`}`;
    const answer = (await rawRequest(server.url, 'GET', `${path}?${query}`, { token: user.pb.authStore.token })).body as DropListAnswer;
    seen.push(...answer.drops.map((drop) => drop.id));
    snapshot = answer.snapshot;
    if (!answer.has_more) return seen;
    await between();
    page += 1;
  }
}
