import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { stubMessageListLayout } from '../../../test/layout';
import type { ClientMessage } from '../../internal/chatClient';
import { clientMessage } from '../../testing/builders';
import { MessageList } from './MessageList';

// Local noon on Monday 5 January 2026, whatever the time zone.
const now = new Date(2026, 0, 5, 12, 0).getTime();
const bob = { author_id: 'user_bob', author_name: 'Bob', author_username: 'bob' };
const ann = { author_id: 'user_ann', author_name: 'Ann', author_username: 'ann' };

let seq = 0;
function said(author: typeof bob, content: string, day: number, hours: number, minutes: number): ClientMessage {
  seq += 1;
  return clientMessage({ ...author, content, seq, message_id: `m${seq}`, created_at: new Date(2026, 0, day, hours, minutes).toISOString() });
}

function conversation(): ClientMessage[] {
  seq = 0;
  return [
    said(ann, 'Friday plans?', 2, 17, 0),
    said(bob, 'Pizza.', 4, 20, 0),
    said(bob, 'Morning!', 5, 9, 0),
    said(bob, 'Coffee first.', 5, 9, 2),
    said(bob, 'Then the review.', 5, 9, 4),
    said(ann, 'Sounds good.', 5, 9, 5),
  ];
}

const log = () => screen.getByRole('log', { name: 'Messages' });
/** The authors' names shown, in order (grouped messages show none). */
const shownNames = () => [...log().querySelectorAll('.cf-message__author')].map((name) => name.textContent);

beforeEach(() => stubMessageListLayout(600));

describe('MessageList grouping and days', () => {
  it('opens each day with a divider named by the day, in order', () => {
    renderWithConfab(<MessageList messages={conversation()} now={now} />);
    expect(within(log()).getAllByRole('separator').map((divider) => divider.getAttribute('aria-label'))).toEqual(['Friday, January 2', 'Yesterday', 'Today']);
  });

  it('shows one name for a quick run by one author, and keeps every author for screen readers', () => {
    renderWithConfab(<MessageList messages={conversation()} now={now} />);
    expect(shownNames()).toEqual(['Ann', 'Bob', 'Bob', 'Ann']);
    const bobs = within(log()).getAllByRole('article', { name: 'Bob' });
    expect(bobs).toHaveLength(4);
    expect(within(bobs[3]!).getByText('Bob')).toHaveClass('cf-visually-hidden');
    expect(bobs[3]).toHaveClass('cf-message--grouped');
  });

  it("starts a new group at the 'New messages' divider", () => {
    // Signed out: every message after seq 3 is new, so 'Coffee first.' opens the unread ones.
    renderWithConfab(<MessageList messages={conversation()} now={now} lastReadSeq={3} />);
    const divider = screen.getByRole('separator', { name: 'New messages' }).closest('.cf-message-list__row') as HTMLElement;
    expect(within(divider).getByRole('article', { name: 'Bob' })).not.toHaveClass('cf-message--grouped');
    expect(shownNames()).toEqual(['Ann', 'Bob', 'Bob', 'Bob', 'Ann']);
  });

  it('speaks the days in the chosen language', () => {
    renderWithConfab(<MessageList messages={conversation()} now={now} locale="zh" />);
    expect(within(log()).getAllByRole('separator').map((divider) => divider.getAttribute('aria-label'))).toEqual(['1月2日星期五', '昨天', '今天']);
  });
});
