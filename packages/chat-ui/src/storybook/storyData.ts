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
