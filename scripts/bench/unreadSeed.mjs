// Seeds a confab data dir for `pnpm bench:unread`, straight into its SQLite file with better-sqlite3
// (the server's migrations made the schema; the server is stopped meanwhile). Honest data: every
// message is a row of `messages` with its seq, every chat's `last_seq` is its newest seq, read
// positions are rows of `chat_reads` and mentions rows of `message_mentions`, as the server writes
// them (migrations 001, 002, 012, 018). Deterministic (a seeded PRNG).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { idOf, randomFrom, stamp } from './dropsSeed.mjs';

const require = createRequire(new URL('../../packages/server/package.json', import.meta.url));
const BetterSqlite3 = require('better-sqlite3');

const minuteMs = 60_000;
// What a stored body looks like at rest (contentCipher.ts: 'v1:' + base64 of nonce, ciphertext and
// tag; 79 bytes for a 29-byte message); the chat list never reads it.
const body = `v1:${Buffer.alloc(57, 'bench unread message body, encrypted at rest ').toString('base64')}`;

/** Which third of the chats a chat is in, by the reader's position. */
export const kinds = ['read', 'few unread', 'never read'];

/**
 * @param {{ dataDir: string, readerUsername: string, chats: number, messages: number, nowMs: number, seed?: number,
 *   log?: (text: string) => void }} options
 * The reader (registered over HTTP) takes part in every chat, with one other person per chat
 * (`bench_user_<n>`, the reader's password: a copy of its argon2 hash). The creator (the reader in
 * even chats, the other in odd ones) is the chat's admin. Read positions by thirds: chats 0, 3, 6, …
 * fully read; 1, 4, 7, … 1–50 unread; 2, 5, 8, … never read (position 0: every message unread).
 * Every 5th chat is muted by the reader. Up to the reader's position the two people take turns; the
 * unread tail is the other person's (posting moves one's own position, so one's own never count).
 * 0–20 mentions of the reader per chat, in the other person's messages at random seqs (in half of
 * the few-unread chats also the newest message), and as many of the other person in the reader's.
 */
export function seedUnread(options) {
  const random = randomFrom(options.seed ?? 12);
  const log = options.log ?? (() => {});
  const count = options.messages;
  const connection = new BetterSqlite3(join(options.dataDir, 'confab.db'));
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = OFF');
  connection.pragma('foreign_keys = ON');
  connection.pragma('cache_size = -262144');
  const reader = connection.prepare('select id, password_hash from users where username = ?').get(options.readerUsername);
  if (reader === undefined) throw new Error(`no user ${options.readerUsername} to seed around`);
  const now = stamp(options.nowMs);

  const insert = {
    user: connection.prepare(`insert into users (id, username, name, email, password_hash, token_key, created, updated) values (?, ?, ?, '', ?, ?, ?, ?)`),
    chat: connection.prepare(`insert into chats (id, name, description, creator, email_address, created, updated, last_seq) values (?, ?, '', ?, ?, ?, ?, ?)`),
    participant: connection.prepare('insert into chat_participants (chat_id, user_id, position) values (?, ?, ?)'),
    admin: connection.prepare('insert into chat_admins (chat_id, user_id, position) values (?, ?, 0)'),
    read: connection.prepare('insert into chat_reads (chat_id, user_id, last_read_seq, muted, updated) values (?, ?, ?, ?, ?)'),
    mention: connection.prepare('insert into message_mentions (user_id, chat_id, seq, created) values (?, ?, ?, ?)'),
    message: connection.prepare(
      `insert into messages (id, chat, author, content_encrypted, message_type, client_id, created, updated, seq) values (?, ?, ?, ?, 'regular', null, ?, ?, ?)`),
  };

  // Newest activity first is not chat order: each chat's newest message at a shuffled rank, 7 minutes apart.
  const rank = Array.from({ length: options.chats }, (_, index) => index);
  for (let index = rank.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [rank[index], rank[other]] = [rank[other], rank[index]];
  }
  const plan = Array.from({ length: options.chats }, (_, index) => {
    const kind = kinds[index % 3];
    const position = kind === 'read' ? count : kind === 'never read' ? 0 : Math.max(0, count - 1 - Math.floor(random() * 50));
    const other = idOf('u', index + 1);
    const author = (seq) => (seq <= position && seq % 2 === 0 ? reader.id : other);
    const mentionsOfReader = new Set();
    for (let wanted = Math.floor(random() * 21); wanted > 0; wanted -= 1) {
      const seq = 1 + Math.floor(random() * count);
      mentionsOfReader.add(author(seq) === other ? seq : seq - 1);
    }
    if (kind === 'few unread' && random() < 0.5 && position < count) mentionsOfReader.add(count);
    const mentionsOfOther = new Set();
    for (let wanted = position >= 2 ? Math.floor(random() * 21) : 0; wanted > 0; wanted -= 1) {
      mentionsOfOther.add(2 * (1 + Math.floor(random() * Math.floor(position / 2))));
    }
    const lastMs = options.nowMs - (1 + rank[index]) * 7 * minuteMs;
    return {
      id: idOf('c', index), index, kind, position, other, author, muted: index % 5 === 4 ? 1 : 0, lastMs,
      creator: index % 2 === 0 ? reader.id : other, mentionsOfReader: [...mentionsOfReader].sort((a, b) => a - b),
      mentionsOfOther: [...mentionsOfOther].sort((a, b) => a - b),
    };
  });

  connection.transaction(() => {
    for (const chat of plan) {
      insert.user.run(chat.other, `bench_user_${chat.index + 1}`, `Bench User ${chat.index + 1}`, reader.password_hash, `key${chat.other}`.padEnd(50, 'k'), now, now);
      const firstMs = chat.lastMs - count * minuteMs;
      insert.chat.run(chat.id, `Bench chat ${chat.index}`, chat.creator, `bench-chat-${chat.index}`, stamp(firstMs - 60 * minuteMs), stamp(chat.lastMs), count);
      const members = chat.creator === reader.id ? [reader.id, chat.other] : [chat.other, reader.id];
      members.forEach((user, position) => insert.participant.run(chat.id, user, position));
      insert.admin.run(chat.id, chat.creator);
      insert.read.run(chat.id, reader.id, chat.position, chat.muted, stamp(chat.lastMs));
      insert.read.run(chat.id, chat.other, count, 0, stamp(chat.lastMs));
      // A mention's time is its message's (below: message `seq` is stored at firstMs + seq minutes).
      const mentionedAt = (seq) => stamp(chat.lastMs - count * minuteMs + seq * minuteMs);
      for (const seq of chat.mentionsOfReader) insert.mention.run(reader.id, chat.id, seq, mentionedAt(seq));
      for (const seq of chat.mentionsOfOther) insert.mention.run(chat.other, chat.id, seq, mentionedAt(seq));
    }
  })();

  // The messages: one prepared statement, a transaction per ~50,000 rows, in (chat, seq) order.
  const chatsPerBatch = Math.max(1, Math.floor(50_000 / Math.max(1, count)));
  const insertChats = connection.transaction((slice) => {
    for (const chat of slice) {
      const firstMs = chat.lastMs - count * minuteMs;
      for (let seq = 1; seq <= count; seq += 1) {
        const created = stamp(firstMs + seq * minuteMs);
        insert.message.run(idOf('m', chat.index * count + seq), chat.id, chat.author(seq), body, created, created, seq);
      }
    }
  });
  let lastLogged = performance.now();
  for (let start = 0; start < plan.length; start += chatsPerBatch) {
    insertChats(plan.slice(start, start + chatsPerBatch));
    if (performance.now() - lastLogged > 10_000) {
      lastLogged = performance.now();
      log(`seeding: ${(Math.min(plan.length, start + chatsPerBatch) * count).toLocaleString('en')} of ${(plan.length * count).toLocaleString('en')} messages`);
    }
  }
  connection.pragma('wal_checkpoint(TRUNCATE)');
  connection.close();
  const byKind = kinds.map((kind) => `${kind} ${plan.filter((chat) => chat.kind === kind).length}`).join(', ');
  return { readerId: reader.id, users: plan.length, byKind, mentions: plan.reduce((sum, chat) => sum + chat.mentionsOfReader.length + chat.mentionsOfOther.length, 0) };
}

/**
 * The reader's state of every chat they take part in, counted from the rows themselves (messages
 * after the position, mentions after the position), not from `last_seq`: what the answers must say.
 * @returns {Map<string, { last_read_seq: number, unread_count: number, mention_count: number, muted: boolean }>}
 */
export function expectedStates(dataDir, readerId) {
  const connection = new BetterSqlite3(join(dataDir, 'confab.db'), { readonly: true });
  try {
    const rows = connection.prepare(`
      select chat_reads.chat_id as id, chat_reads.last_read_seq as position, chat_reads.muted as muted,
        (select count(*) from messages where messages.chat = chat_reads.chat_id and messages.seq > chat_reads.last_read_seq) as unread,
        (select count(*) from message_mentions where message_mentions.user_id = chat_reads.user_id and message_mentions.chat_id = chat_reads.chat_id
          and message_mentions.seq > chat_reads.last_read_seq) as mentions
      from chat_reads join chat_participants on chat_participants.chat_id = chat_reads.chat_id and chat_participants.user_id = chat_reads.user_id
      where chat_reads.user_id = ?`).all(readerId);
    return new Map(rows.map((row) => [row.id, { last_read_seq: row.position, unread_count: row.unread, mention_count: row.mentions, muted: row.muted === 1 }]));
  } finally {
    connection.close();
  }
}

/** Rows in the seeded tables, for the report. */
export function tableCounts(dataDir) {
  const connection = new BetterSqlite3(join(dataDir, 'confab.db'), { readonly: true });
  try {
    const countOf = (table) => connection.prepare(`select count(*) from ${table}`).pluck().get();
    return Object.fromEntries(['chats', 'messages', 'chat_participants', 'chat_reads', 'message_mentions'].map((table) => [table, countOf(table)]));
  } finally {
    connection.close();
  }
}
