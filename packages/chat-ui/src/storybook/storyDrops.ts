import type { FakeBackend } from '@confab/client/testing/fakeBackend';
import { storyChats } from './storyData';

/**
 * Story fixtures for drops: Alice follows 'Product launch' (a chat of hers) whose drops fill her
 * Following feed; 'Design' and 'Research notes' are chats she does not follow, for Discover.
 */
export function seedStoryDrops(backend: FakeBackend): void {
  const launch = { chat_id: storyChats[0]?.id ?? 'chat00000000001', chat_name: 'Product launch', chat_avatar: 'P' };
  const design = { chat_id: 'chatdesign00001', chat_name: 'Design', chat_avatar: 'D' };
  const research = { chat_id: 'chatresearch001', chat_name: 'Research notes', chat_avatar: 'R' };
  if (!backend.chats.some((chat) => chat.id === launch.chat_id)) {
    backend.addChat({ id: launch.chat_id, name: 'Product launch', participants: ['storyuser000001', 'storyuser000002'] });
  }
  backend.addDrop({
    ...design,
    title: 'Our design tokens, explained',
    excerpt: 'Colour, type and spacing as custom properties, and why a host app restyles us by overriding variables only.',
    content: '## Tokens\n\nEvery colour is a **custom property**. #design #tokens #css #theming #a11y',
    tags: ['design', 'tokens', 'css', 'theming', 'a11y'],
    like_count: 24,
    view_count: 310,
    reading_time: 4,
  });
  backend.addDrop({
    ...launch,
    title: 'Launch checklist for v2',
    excerpt: 'What ships on Monday, who signs off, and the rollback plan if the migration misbehaves.',
    content: '## Monday\n\n- [x] Freeze\n- [ ] Ship\n\n![Release board](https://picsum.photos/seed/confab/640/360)',
    featured_image: 'https://picsum.photos/seed/confab/640/360',
    tags: ['launch', 'checklist'],
    like_count: 8,
    view_count: 96,
    reading_time: 3,
    is_liked: true,
  });
  backend.addDrop({ ...research, title: 'Agent market sizing', excerpt: 'Three sources, one range, and the assumptions behind it.', like_count: 15, view_count: 120, reading_time: 6 });
  backend.addDrop({
    ...launch,
    title: 'Why we moved to snapshots for paging',
    excerpt: 'New drops arrive while you scroll; pages cut from a snapshot never repeat or skip one.',
    like_count: 3,
    view_count: 41,
    reading_time: 2,
    is_bookmarked: true,
  });
  backend.addDrop({ ...design, title: 'Focus rings we can live with', excerpt: 'Visible, on brand, and never removed.', like_count: 11, view_count: 80, reading_time: 1 });
  backend.dropData.follows.add(launch.chat_id);
  backend.dropData.otherFollowers.set(launch.chat_id, 2);
  backend.dropData.otherFollowers.set(design.chat_id, 5);
}

/** Adds `count` more drops to Alice's followed chat, so the feed has a second page. */
export function seedManyStoryDrops(backend: FakeBackend, count: number): void {
  seedStoryDrops(backend);
  for (let index = 0; index < count; index += 1) {
    backend.addDrop({ chat_id: storyChats[0]?.id ?? 'chat00000000001', chat_name: 'Product launch', chat_avatar: 'P', title: `Stand-up notes, day ${index + 1}`, view_count: index });
  }
}
