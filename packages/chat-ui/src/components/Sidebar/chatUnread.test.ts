import { describe, expect, it } from 'vitest';
import { badgeCount, chatUnreadOf } from './chatUnread';

describe('chatUnreadOf', () => {
  it('reads a chat without counts (or an older server) as read', () => {
    expect(chatUnreadOf({})).toEqual({ unread: false, spoken: '', badge: null });
    expect(chatUnreadOf({ unread_count: 0, mention_count: 0, muted: true })).toEqual({ unread: false, spoken: '', badge: null });
  });

  it('counts unread messages, the mentions among them in the accent badge', () => {
    expect(chatUnreadOf({ unread_count: 3 })).toEqual({ unread: true, spoken: ', 3 unread', badge: { kind: 'count', text: '3' } });
    expect(chatUnreadOf({ unread_count: 3, mention_count: 1 })).toEqual({ unread: true, spoken: ', 3 unread, 1 mention', badge: { kind: 'mention', text: '1' } });
    expect(chatUnreadOf({ unread_count: 4, mention_count: 2 }).spoken).toBe(', 4 unread, 2 mentions');
  });

  it('shows a muted chat as a dot unless someone mentioned the person', () => {
    expect(chatUnreadOf({ unread_count: 7, muted: true })).toEqual({ unread: true, spoken: ', unread', badge: { kind: 'dot' } });
    expect(chatUnreadOf({ unread_count: 7, mention_count: 2, muted: true })).toEqual({ unread: true, spoken: ', unread, 2 mentions', badge: { kind: 'mention', text: '2' } });
  });

  it("caps the badge at '99+' and says the real count", () => {
    expect(badgeCount(99)).toBe('99');
    expect(badgeCount(100)).toBe('99+');
    expect(chatUnreadOf({ unread_count: 250 })).toMatchObject({ spoken: ', 250 unread', badge: { text: '99+' } });
  });
});
