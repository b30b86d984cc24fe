import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, json } from '@confab/client/testing/fakeBackend';
import { ChatOptionsScreen } from './ChatOptionsScreen';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice', password: 'wonderland' };

describe('ChatOptionsScreen chat inbox', () => {
  it("shows the chat's inbox address with the server's mail domain, read-only", async () => {
    const backend = createFakeBackend({ users: [alice] });
    backend.override('GET /api/config', () => json(200, { public_domain: 'app.example:8443', mail_domain: 'mail.example' }));
    const chat = backend.addChat({ id: 'chat_inbox_0001', name: 'Support', participants: [alice.id], admins: [alice.id], email_address: 'support-k2j4m1' });
    const result = renderWithConfab(<ChatOptionsScreen chatId={chat.id} />, { backend });
    await act(() => result.client.login('alice', 'wonderland'));
    const field = await screen.findByDisplayValue('support-k2j4m1@mail.example');
    expect(field).toBe(screen.getByLabelText('Chat inbox address'));
    expect(field).toHaveAttribute('readonly');
    expect(screen.getByRole('heading', { name: 'Chat inbox' })).toBeInTheDocument();
  });
});
