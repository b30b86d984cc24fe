import type { ChatRecord } from '@confab/client';
import { chatRecord, userRecordOf } from '../testing/builders';
import { storyUserRecord } from './storyClient';

/** Shared story fixtures: a few chats Alice takes part in. */
const bob = userRecordOf('storyuser000002', 'bob', 'Bob Builder');
const carol = userRecordOf('storyuser000003', 'carol', 'Carol');

export const storyChats: ChatRecord[] = [
  chatRecord({
    id: 'chat00000000001',
    name: 'Product launch',
    description: 'Planning the v2 release',
    creator: storyUserRecord.id,
    participants: [storyUserRecord.id, bob.id, carol.id],
    admins: [storyUserRecord.id],
    email_address: 'product-launch-a1b2c3',
    expand: { participants: [storyUserRecord, bob, carol], admins: [storyUserRecord] },
  }),
  chatRecord({ id: 'chat00000000002', name: 'Research with @deep', description: 'Market sizing for agents' }),
  chatRecord({ id: 'chat00000000003', name: 'Random' }),
];

/** The first chat as a chat where Alice is not an admin. */
export const storyChatNotAdmin: ChatRecord = {
  ...(storyChats[0] as ChatRecord),
  admins: [bob.id],
  expand: { participants: [storyUserRecord, bob, carol], admins: [bob] },
};

/**
 * Chats with something unread for Alice: counts, mentions (the accent badge), muted ones (a dot,
 * or the mention count), more than 99 ('99+'), and one read.
 */
export const storyUnreadChats: ChatRecord[] = [
  { ...(storyChats[0] as ChatRecord), unread_count: 3, mention_count: 0 },
  { ...(storyChats[1] as ChatRecord), unread_count: 12, mention_count: 2 },
  chatRecord({ id: 'chat00000000004', name: 'Launch Plan', description: 'Muted: a dot, no count', unread_count: 5, mention_count: 0, muted: true }),
  chatRecord({ id: 'chat00000000005', name: 'Support rota', description: 'Muted, but someone mentioned Alice', unread_count: 8, mention_count: 1, muted: true }),
  chatRecord({ id: 'chat00000000006', name: 'Announcements', description: 'A busy channel', unread_count: 240, mention_count: 0 }),
  storyChats[2] as ChatRecord,
];
