import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse, json } from '@confab/client/testing/fakeBackend';
import { InviteUserScreen } from './InviteUserScreen';

const alice = { username: 'alice', email: 'alice@example.com', name: 'Alice', password: 'wonderland' };

async function setup() {
  const backend = createFakeBackend({ users: [alice] });
  backend.override('GET /api/search-users/bo', () => json(200, { users: [{ id: 'u2', username: 'bob', name: 'Bob Builder' }] }));
  backend.override('POST /api/invite-to-chat', (_request, body) => {
    if (body['username'] === 'ghost') return errorResponse(404, 'User not found');
    if (body['username'] === 'broken') return errorResponse(500, 'Boom');
    if (body['username'] === 'removed') return errorResponse(404, 'Chat not found');
    if (body['email'] === 'fail@example.com') return errorResponse(400, 'Mail transport down');
    if (body['username'] === 'busy') return errorResponse(429, 'Too many invitations. Please try again later.');
    if (body['username'] === 'demoted') return errorResponse(403, 'Only chat admins can invite people.');
    if (body['email'] !== undefined) return json(200, { success: true, status: 'invited', chat_id: 'chat1' });
    return json(200, { success: true, status: 'added', chat_id: 'chat1', user: { id: 'u2', username: body['username'], name: 'Bob Builder' } });
  });
  backend.override('POST /api/create-share-link/chat1', () => json(200, { share_url: 'http://confab.test/join/abc', expires_at: 'x', max_uses: 50 }));
  const result = renderWithConfab(<InviteUserScreen chatId="chat1" />, { backend });
  await act(() => result.client.login('alice', 'wonderland'));
  return result;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const input = () => screen.getByLabelText('Email or username');
const send = () => screen.getByRole('button', { name: 'Send Invite' });

describe('InviteUserScreen invite', () => {
  it('needs an input', async () => {
    const { user } = await setup();
    await user.click(send());
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter an email address or username');
  });

  it('suggests usernames from 2 characters and picks one', async () => {
    const { user, backend } = await setup();
    await user.type(input(), 'b');
    expect(backend.requests.some((request) => request.route.startsWith('GET /api/search-users/'))).toBe(false);
    await user.type(input(), 'o');
    const list = await screen.findByRole('list', { name: 'Suggestions' });
    await user.click(within(list).getByRole('button', { name: 'Bob Builder (@bob)' }));
    expect(input()).toHaveValue('bob');
  });

  it('adds an existing user and goes to the chat after 1.5 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { user, navigate, backend } = await setup();
    await user.type(input(), 'bob');
    await user.click(send());
    expect(await screen.findByRole('status')).toHaveTextContent('Bob Builder has been added to the chat.');
    expect(backend.requests.find((request) => request.route === 'POST /api/invite-to-chat')?.body).toEqual({ chat_id: 'chat1', username: 'bob' });
    act(() => vi.advanceTimersByTime(1499));
    expect(navigate).not.toHaveBeenCalledWith('/chat/chat1');
    act(() => vi.advanceTimersByTime(1));
    expect(navigate).toHaveBeenCalledWith('/chat/chat1');
  });

  it('invites a lower-cased e-mail and stays', async () => {
    const { user, navigate, backend } = await setup();
    await user.type(input(), 'New.Person@Example.com');
    await user.click(send());
    expect(await screen.findByRole('status')).toHaveTextContent('Invitation sent to new.person@example.com.');
    expect(backend.requests.find((request) => request.route === 'POST /api/invite-to-chat')?.body).toEqual({ chat_id: 'chat1', email: 'new.person@example.com' });
    expect(navigate).not.toHaveBeenCalled();
  });

  it.each([
    ['ghost', 'User not found. Please check the username.'],
    ['broken', 'Failed to invite user.'],
    ['removed', 'Chat not found'],
    ['fail@example.com', 'Mail transport down'],
    ['busy', 'Too many invitations. Please try again later.'],
    ['demoted', 'Only chat admins can invite people.'],
  ])('shows the docs/PRODUCT.md §8 message for %s', async (value, message) => {
    const { user } = await setup();
    await user.type(input(), value);
    await user.click(send());
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });
});

describe('InviteUserScreen share link', () => {
  it('creates, copies with a 3 s confirmation, and resets with Create New Link', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { user } = await setup();
    await user.click(screen.getByRole('button', { name: 'Create Share Link' }));
    expect(await screen.findByLabelText('Share link')).toHaveValue('http://confab.test/join/abc');
    await user.click(screen.getByRole('button', { name: 'Copy Link' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Copied!');
    await expect(navigator.clipboard.readText()).resolves.toBe('http://confab.test/join/abc');
    act(() => vi.advanceTimersByTime(3000));
    expect(screen.queryByText('Copied!')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create New Link' }));
    expect(screen.getByRole('button', { name: 'Create Share Link' })).toBeInTheDocument();
  });

  it('shows "Failed to copy link" and "Failed to create share link"', async () => {
    const { user, backend } = await setup();
    await user.click(screen.getByRole('button', { name: 'Create Share Link' }));
    await screen.findByLabelText('Share link');
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(screen.getByRole('button', { name: 'Copy Link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to copy link');
    backend.override('POST /api/create-share-link/chat1', () => new Response('nope', { status: 500 }));
    await user.click(screen.getByRole('button', { name: 'Create New Link' }));
    await user.click(screen.getByRole('button', { name: 'Create Share Link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create share link');
  });
});

describe('InviteUserScreen for someone who is not an admin', () => {
  it('says only chat admins can invite, instead of a form and a share link', async () => {
    const bob = { username: 'bob', email: 'bob@example.com', name: 'Bob', password: 'builder123' };
    const backend = createFakeBackend({ users: [alice, bob] });
    const result = renderWithConfab(<InviteUserScreen chatId="chat_design_001" />, { backend });
    await act(() => result.client.login('alice', 'wonderland'));
    const [aliceId, bobId] = backend.users.map((known) => known.id);
    backend.addChat({ id: 'chat_design_001', name: 'Design', participants: [bobId ?? '', aliceId ?? ''], admins: [bobId ?? ''] });
    await act(() => result.client.chats.list());
    expect(await screen.findByRole('note')).toHaveTextContent('Only chat admins can invite people.');
    expect(screen.queryByLabelText('Email or username')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Share Link' })).not.toBeInTheDocument();
    await result.user.click(screen.getByRole('button', { name: 'Back to chat' }));
    expect(result.navigate).toHaveBeenCalledWith('/chat/chat_design_001');
  });

  it('shows the form to an admin of the chat', async () => {
    const backend = createFakeBackend({ users: [alice] });
    const result = renderWithConfab(<InviteUserScreen chatId="chat_design_001" />, { backend });
    await act(() => result.client.login('alice', 'wonderland'));
    backend.addChat({ id: 'chat_design_001', name: 'Design', participants: [backend.users[0]?.id ?? ''] });
    // Not in the store: the screen fetches the chat itself.
    await waitFor(() => expect(backend.requests.some((request) => request.route === 'GET /api/collections/chats/records/chat_design_001')).toBe(true));
    expect(screen.getByLabelText('Email or username')).toBeEnabled();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});
