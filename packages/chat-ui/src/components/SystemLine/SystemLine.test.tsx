import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SystemLine as SystemLineData } from '@confab/client';
import { clientMessage } from '../../testing/builders';
import { messageActions } from '../MessageList/messageActions';
import { Message } from '../Message/Message';
import { SystemLine } from './SystemLine';

const now = Date.parse('2026-01-05T12:30:00Z');
const ann = { id: 'ann', name: 'ann' };
const bob = { id: 'bob', name: 'bob' };

describe('SystemLine', () => {
  it.each<[SystemLineData, string]>([
    [{ kind: 'added', actor: ann, subject: bob }, 'ann added bob'],
    [{ kind: 'joined_via_link', actor: bob }, 'bob joined via a share link'],
    [{ kind: 'left', actor: bob }, 'bob left'],
    [{ kind: 'renamed', actor: ann, name: 'Q3 plans' }, 'ann renamed the chat to Q3 plans'],
  ])('reads %j as “%s”', (line, text) => {
    render(<SystemLine line={line} fallback="ignored" />);
    expect(screen.getByRole('note', { name: text })).toHaveTextContent(text);
  });

  it('speaks the reader’s language, and shows names as plain text, never markdown', () => {
    const { container } = render(<SystemLine line={{ kind: 'renamed', actor: { id: 'a', name: '**ann**' }, name: '<b>x</b>' }} fallback="" locale="zh" />);
    expect(screen.getByRole('note')).toHaveTextContent('**ann** 将聊天重命名为 <b>x</b>');
    expect(container.querySelector('b, strong')).toBeNull();
  });

  it("falls back to the server's text for a kind this version does not know", () => {
    render(<SystemLine line={{ kind: 'pinned' as never, actor: ann }} fallback="ann pinned a message" />);
    expect(screen.getByRole('note', { name: 'ann pinned a message' })).toBeInTheDocument();
  });

  it('is what Message shows for a system message: a line with its time, not an article, with no actions', () => {
    const message = clientMessage({ content: 'ann added bob', message_type: 'system', system: { kind: 'added', actor: ann, subject: bob } }, { minutesAgo: 5, now });
    render(<Message message={message} now={now} canEdit canDelete />);
    expect(screen.getByRole('note', { name: 'ann added bob' })).toHaveTextContent('ann added bob · 5m ago');
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(messageActions(message, { userId: message.author_id, adminOfChat: message.chat_id })).toEqual({ canEdit: false, canDelete: false, canReact: false });
    const card = clientMessage({ content: 'shared a.csv', message_type: 'file' });
    expect(messageActions(card, { userId: card.author_id, adminOfChat: null })).toEqual({ canEdit: false, canDelete: true, canReact: true });
  });
});
