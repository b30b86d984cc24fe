// Seeds a confab data dir for `pnpm bench:drops`, straight into its SQLite file with better-sqlite3
// (the server's migrations made the schema; the server is stopped meanwhile). Honest data: every
// like and view is a row, and each drop's like_count, view_count and trending_score are computed
// from its rows with the server's own `trendingScore`. Deterministic (a seeded PRNG).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { excerptOf, readingTimeOf, tagsOf } from '../../packages/server/src/services/dropText.ts';
import { trending, trendingScore } from '../../packages/server/src/services/trending.ts';

const require = createRequire(new URL('../../packages/server/package.json', import.meta.url));
const BetterSqlite3 = require('better-sqlite3');

const dayMs = 24 * 3_600_000;
const words = ['garden', 'compost', 'river', 'lantern', 'orbit', 'quartz', 'meadow', 'harbor', 'signal', 'cedar', 'ember', 'tide'];

/** mulberry32: small, fast, good enough to spread rows. */
export function randomFrom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

export const idOf = (prefix, index) => `${prefix}${index.toString(36).padStart(14, '0')}`;
export const stamp = (ms) => new Date(ms).toISOString().replace('T', ' ');

/** Inserts rows with one prepared statement, in transactions of `batch` rows. */
function insertAll(connection, sql, rows, batch = 50_000) {
  const statement = connection.prepare(sql);
  const insertBatch = connection.transaction((slice) => {
    for (const row of slice) statement.run(row);
  });
  for (let start = 0; start < rows.length; start += batch) insertBatch(rows.slice(start, start + batch));
}

/**
 * `count` distinct (drop, user) pairs, popularity skewed (a few drops get hundreds, most a few):
 * drop = n·u^1.5 over a shuffled order, so popularity has nothing to do with age.
 */
function pairs(random, count, dropCount, userCount, order) {
  const seen = new Set();
  const result = [];
  while (result.length < count) {
    const drop = order[Math.floor(dropCount * random() ** 1.5)];
    const user = 1 + Math.floor(random() * (userCount - 1));
    const key = drop * userCount + user;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push([drop, user]);
  }
  return result.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

function shuffled(random, length) {
  const order = Array.from({ length }, (_, index) => index);
  for (let index = length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [order[index], order[other]] = [order[other], order[index]];
  }
  return order;
}

/**
 * @param {{ dataDir: string, readerUsername: string, drops: number, likes: number, views: number, users: number,
 *   chats: number, followedChats: number, followsPerUser: number, nowMs: number, seed?: number }} options
 * The reader (registered over HTTP) is user 0: a participant of 3 chats, following `followedChats` in all.
 * Seeded people are `bench_user_<n>` with the reader's password (a copy of its argon2 hash).
 */
export function seedDrops(options) {
  const random = randomFrom(options.seed ?? 10);
  const connection = new BetterSqlite3(join(options.dataDir, 'confab.db'));
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = OFF');
  connection.pragma('foreign_keys = ON');
  const reader = connection.prepare('select id, password_hash from users where username = ?').get(options.readerUsername);
  if (reader === undefined) throw new Error(`no user ${options.readerUsername} to seed around`);
  const now = stamp(options.nowMs);
  const userIds = [reader.id, ...Array.from({ length: options.users - 1 }, (_, index) => idOf('u', index + 1))];
  insertAll(connection,
    `insert into users (id, username, name, email, password_hash, token_key, created, updated) values (?, ?, ?, '', ?, ?, ?, ?)`,
    userIds.slice(1).map((id, index) => [id, `bench_user_${index + 1}`, `Bench User ${index + 1}`, reader.password_hash, `key${id}`.padEnd(50, 'k'), now, now]));

  // Chats: 4 participants each (the first is creator and admin), who follow it; people follow more.
  const chatIds = Array.from({ length: options.chats }, (_, index) => idOf('c', index));
  const members = chatIds.map((_, index) => (index < 3 ? [0] : []));
  for (const list of members) while (list.length < 4) {
    const user = 1 + Math.floor(random() * (options.users - 1));
    if (!list.includes(user)) list.push(user);
  }
  insertAll(connection, `insert into chats (id, name, creator, email_address, created, updated) values (?, ?, ?, ?, ?, ?)`,
    chatIds.map((id, index) => [id, `Bench chat ${index}`, userIds[members[index][0]], `bench-chat-${index}@confab.localhost`, now, now]));
  insertAll(connection, `insert into chat_participants (chat_id, user_id, position) values (?, ?, ?)`,
    members.flatMap((list, chat) => list.map((user, position) => [chatIds[chat], userIds[user], position])));
  insertAll(connection, `insert into chat_admins (chat_id, user_id, position) values (?, ?, 0)`, members.map((list, chat) => [chatIds[chat], userIds[list[0]]]));
  const follows = new Set(members.flatMap((list, chat) => list.map((user) => chat * options.users + user)));
  for (let chat = 3; chat < options.followedChats; chat += 1) follows.add(chat * options.users);
  for (let user = 1; user < options.users; user += 1) {
    for (let count = 0; count < options.followsPerUser; count += 1) follows.add(Math.floor(random() * options.chats) * options.users + user);
  }
  insertAll(connection, `insert into chat_follows (chat_id, user_id, created) values (?, ?, ?)`,
    [...follows].map((key) => [chatIds[Math.floor(key / options.users)], userIds[key % options.users], now]));

  // Drops over the chats and the last 30 days; likes and views as rows; counters from the rows.
  const windowMs = trending.windowDays * dayMs - 60_000;
  // In publication order, as a live server inserts them (rows of one day sit together on disk).
  const drops = Array.from({ length: options.drops }, () => options.nowMs - Math.floor(random() * windowMs))
    .sort((a, b) => a - b)
    .map((publishedMs, index) => {
      const chat = Math.floor(random() * options.chats);
      return { index, chat, author: members[chat][Math.floor(random() * 4)], publishedMs, likes: 0, views: 0 };
    });
  const likes = pairs(random, options.likes, options.drops, options.users, shuffled(random, options.drops));
  const views = pairs(random, options.views, options.drops, options.users, shuffled(random, options.drops));
  for (const [drop] of likes) drops[drop].likes += 1;
  for (const [drop] of views) drops[drop].views += 1;
  const between = (drop) => drop.publishedMs + Math.floor(random() * (options.nowMs - drop.publishedMs));
  insertAll(connection,
    `insert into drops (id, slug, chat, author, title, excerpt, content, featured_image, tags, view_count, like_count, reading_time, trending_score, published_at, created, updated)
     values (?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?)`,
    drops.map((drop) => {
      const topic = words[drop.index % words.length];
      const content = `Notes on ${topic} number ${drop.index}: ${words.slice(0, 6 + (drop.index % 6)).join(' ')}. #${topic} #bench\n\n${'More thoughts follow here. '.repeat(1 + (drop.index % 8))}`;
      const published = stamp(drop.publishedMs);
      return [idOf('d', drop.index), `bench-drop-${drop.index}`, chatIds[drop.chat], userIds[drop.author], `Bench drop ${drop.index} about ${topic}`,
        excerptOf(content), content, JSON.stringify(tagsOf(content)), drop.views, drop.likes, readingTimeOf(content),
        trendingScore(drop.likes, drop.views, drop.publishedMs, options.nowMs), published, published, published];
    }));
  insertAll(connection, `insert into drop_likes (drop_id, user_id, created) values (?, ?, ?)`,
    likes.map(([drop, user]) => [idOf('d', drop), userIds[user], stamp(between(drops[drop]))]));
  insertAll(connection, `insert into drop_views (drop_id, user_id, day) values (?, ?, ?)`,
    views.map(([drop, user]) => [idOf('d', drop), userIds[user], stamp(between(drops[drop])).slice(0, 10)]));
  connection.close();
  return { users: options.users, chats: options.chats, follows: follows.size };
}

/** Counters against rows, over every drop: how many drops' like_count (view_count) differ from their rows. */
export function checkCounters(dataDir) {
  const connection = new BetterSqlite3(join(dataDir, 'confab.db'), { readonly: true });
  try {
    const count = (sql) => connection.prepare(sql).pluck().get();
    return {
      drops: count('select count(*) from drops'),
      likeRows: count('select count(*) from drop_likes'),
      likeMismatches: count('select count(*) from drops where like_count <> (select count(*) from drop_likes where drop_likes.drop_id = drops.id)'),
      viewMismatches: count('select count(*) from drops where view_count <> (select count(*) from drop_views where drop_views.drop_id = drops.id)'),
    };
  } finally {
    connection.close();
  }
}
