import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { stubMessageListLayout } from '../../../test/layout';
import { clientMessage } from '../../testing/builders';
import { MessageList } from './MessageList';

const messages = Array.from({ length: 60 }, (_, index) =>
  clientMessage({ content: `Line ${index + 1}`, seq: index + 1, message_id: `m${index + 1}`, created_at: new Date(Date.UTC(2026, 0, 5, 9, index)).toISOString() }),
);

const articleOf = (text: string) => screen.getByText(text, { exact: true }).closest('article');

beforeEach(() => stubMessageListLayout(600));

describe('MessageList focusMessageId (a notification opens the chat at its message)', () => {
  it('goes to the named message once the list has loaded and marks it', async () => {
    const { rerender } = renderWithConfab(<MessageList messages={[]} loading focusMessageId="m3" />);
    rerender(<MessageList messages={messages} focusMessageId="m3" />);
    await waitFor(() => expect(articleOf('Line 3')).toHaveClass('cf-message--highlighted'));
    expect(articleOf('Line 3')).toHaveAttribute('data-message-id', 'm3');
  });

  it('leaves the list as it opens when no message is named', async () => {
    renderWithConfab(<MessageList messages={messages} />);
    await waitFor(() => expect(screen.getByText('Line 60', { exact: true })).toBeInTheDocument());
    expect(document.querySelector('.cf-message--highlighted')).toBeNull();
  });
});
