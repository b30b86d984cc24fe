import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse, json, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { JoinScreen } from './JoinScreen';

const alice = { username: 'alice', email: 'alice@example.com', name: 'Alice', password: 'wonderland' };

function invitation(linkType: 'shareable' | 'email', userExists = false) {
  return { id: 'inv1', chat_id: 'chat1', chat: { id: 'chat1', name: 'Launch' }, email: linkType === 'email' ? 'new@example.com' : '', link_type: linkType, user_exists: userExists, expires_at: '2026-12-01' };
}

function backendWith(answer: Response | null): FakeBackend {
  const backend = createFakeBackend({ users: [alice] });
  if (answer !== null) backend.override('GET /api/invitation/tok', () => answer.clone());
  return backend;
}

const fakeTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });

async function setup(token: string | null, backend: FakeBackend, signedIn = false) {
  const result = renderWithConfab(<div />, { backend });
  if (signedIn) await act(() => result.client.login('alice', 'wonderland'));
  result.rerender(<JoinScreen token={token} />);
  return result;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('JoinScreen errors', () => {
  it.each([null, '', '  '])('without a token shows "Invalid invitation link" (%j)', async (token) => {
    const { user, navigate } = await setup(token, backendWith(null));
    expect(screen.getByRole('heading', { name: 'Unable to Join Chat' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid invitation link');
    await user.click(screen.getByRole('button', { name: 'Go to Login' }));
    expect(navigate).toHaveBeenLastCalledWith('/login');
  });

  it('shows "Invalid or expired invitation link" for an unknown token', async () => {
    await setup('tok', backendWith(errorResponse(404, 'Invalid or expired invitation')));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid or expired invitation link');
  });

  it('shows the processing state, then "Failed to process invitation" on a server failure', async () => {
    await setup('tok', backendWith(errorResponse(500, 'Boom')));
    expect(screen.getByRole('status')).toHaveTextContent('Processing invitation...');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to process invitation. Please try again.');
  });
});

describe('JoinScreen signed in', () => {
  it.each([
    ['shareable', 1000],
    ['email', 2000],
  ] as const)('accepts a %s invitation as the current user and goes to the chat after %i ms', async (linkType, delay) => {
    fakeTimers();
    const backend = backendWith(json(200, invitation(linkType)));
    backend.override('GET /api/accept-invitation/tok', () => new Response(null, { status: 302, headers: { Location: '/chat/chat1' } }));
    const { navigate } = await setup('tok', backend, true);
    expect(await screen.findByRole('heading', { name: 'Welcome to the chat!' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(delay - 1));
    expect(navigate).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(navigate).toHaveBeenCalledWith('/chat/chat1');
    expect(backend.requests.filter((request) => request.route === 'GET /api/accept-invitation/tok')).toHaveLength(1);
  });

  it.each([
    ['shareable', 'Failed to join chat. Please try again.'],
    ['email', 'Failed to accept invitation. The link may be invalid or expired.'],
  ] as const)('shows the %s failure message', async (linkType, message) => {
    const backend = backendWith(json(200, invitation(linkType)));
    backend.override('GET /api/accept-invitation/tok', () => errorResponse(400, 'Invalid or expired invitation'));
    await setup('tok', backend, true);
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });

  it('shows "Invalid redirect response" when the answer is not a redirect to a chat', async () => {
    const backend = backendWith(json(200, invitation('shareable')));
    backend.override('GET /api/accept-invitation/tok', () => json(200, { ok: true }));
    await setup('tok', backend, true);
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid redirect response');
  });
});

describe('JoinScreen share link, signed out', () => {
  it('asks for a name, joins with a temporary account, signs in and goes to the chat after 2 s', async () => {
    fakeTimers();
    const backend = backendWith(json(200, invitation('shareable')));
    backend.users.push({ id: 'tempuser000001', username: 'user_abcdefghij', email: 'user_abcdefghij@temporary.confab.invalid', name: 'Ada', password: 'temp-pass' });
    backend.override('POST /api/accept-invitation/tok', () => json(200, { success: true, temp_password: 'temp-pass', username: 'user_abcdefghij', chat_id: 'chat1' }));
    const { user, navigate, client } = await setup('tok', backend);
    await user.click(await screen.findByRole('button', { name: 'Join Chat' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter your name');
    await user.type(screen.getByLabelText('Your name'), '  Ada ');
    await user.click(screen.getByRole('button', { name: 'Join Chat' }));
    expect(await screen.findByRole('heading', { name: 'Welcome to the chat!' })).toBeInTheDocument();
    expect(backend.requests.find((request) => request.route === 'POST /api/accept-invitation/tok')?.body).toEqual({ display_name: 'Ada' });
    expect(client.store.getState().user?.username).toBe('user_abcdefghij');
    act(() => vi.advanceTimersByTime(2000));
    expect(navigate).toHaveBeenCalledWith('/chat/chat1');
  });

  it('offers someone with an account to sign in and come back to this link', async () => {
    await setup('tok', backendWith(json(200, invitation('shareable'))));
    expect(await screen.findByRole('link', { name: 'Sign in instead' })).toHaveAttribute('href', '/login?redirect=/join/tok');
  });

  it('shows the server message when the join fails', async () => {
    const backend = backendWith(json(200, invitation('shareable')));
    backend.override('POST /api/accept-invitation/tok', () => errorResponse(400, 'Invalid or expired invitation'));
    const { user } = await setup('tok', backend);
    await user.type(await screen.findByLabelText('Your name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Join Chat' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid or expired invitation');
  });
});

describe('JoinScreen e-mail invitation, signed out', () => {
  it('sends an existing user to /login?redirect=/join/{token}', async () => {
    const { navigate } = await setup('tok', backendWith(json(200, invitation('email', true))));
    expect(await screen.findByRole('heading', { name: 'Sign in to join' })).toBeInTheDocument();
    // The redirect follows the heading's render; under load it can land a tick later.
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/login?redirect=/join/tok', { replace: true }));
  });

  it('shows the complete-signup form, validates, creates the account, signs in and joins', async () => {
    fakeTimers();
    const backend = backendWith(json(200, invitation('email')));
    backend.override('POST /api/accept-invitation/tok', (_request, body) => {
      backend.users.push({ id: 'newuser0000001', username: String(body['username']), email: 'new@example.com', name: String(body['display_name']), password: String(body['password']) });
      return json(200, { success: true, username: body['username'], chat_id: 'chat1' });
    });
    const { user, navigate, client } = await setup('tok', backend);
    expect(await screen.findByLabelText('Email')).toHaveValue('new@example.com');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    expect(screen.getByRole('link', { name: 'Sign in instead' })).toHaveAttribute('href', '/login?redirect=/join/tok');
    const submit = () => user.click(screen.getByRole('button', { name: 'Create Account and Join' }));
    await submit();
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a username');
    await user.type(screen.getByLabelText('Username'), 'newbie');
    await user.type(screen.getByLabelText('Password'), 'abc');
    await user.type(screen.getByLabelText('Confirm Password'), 'abc');
    await submit();
    expect(screen.getByRole('alert')).toHaveTextContent('Password must be at least 6 characters long');
    await user.type(screen.getByLabelText('Password'), 'def');
    await submit();
    expect(screen.getByRole('alert')).toHaveTextContent('Passwords do not match');
    await user.type(screen.getByLabelText('Confirm Password'), 'def');
    await submit();
    expect(await screen.findByRole('heading', { name: 'Welcome to the chat!' })).toBeInTheDocument();
    expect(backend.requests.find((request) => request.route === 'POST /api/accept-invitation/tok')?.body).toEqual({ username: 'newbie', password: 'abcdef', display_name: 'newbie' });
    expect(client.store.getState().user?.username).toBe('newbie');
    act(() => vi.advanceTimersByTime(2000));
    expect(navigate).toHaveBeenCalledWith('/chat/chat1');
  });

  it('only warns when the automatic sign-in fails', async () => {
    const backend = backendWith(json(200, invitation('email')));
    backend.override('POST /api/accept-invitation/tok', () => json(200, { success: true, username: 'newbie', chat_id: 'chat1' }));
    const { user } = await setup('tok', backend);
    await user.type(await screen.findByLabelText('Username'), 'newbie');
    await user.type(screen.getByLabelText('Password'), 'abcdef');
    await user.type(screen.getByLabelText('Confirm Password'), 'abcdef');
    await user.click(screen.getByRole('button', { name: 'Create Account and Join' }));
    expect(await screen.findByRole('heading', { name: 'Welcome to the chat!' })).toBeInTheDocument();
    expect(screen.getByText(/signing you in failed/)).toBeInTheDocument();
  });

  it('shows "Failed to complete signup" when the server gives no message', async () => {
    const backend = backendWith(json(200, invitation('email')));
    backend.override('POST /api/accept-invitation/tok', () => new Response('oops', { status: 500 }));
    const { user } = await setup('tok', backend);
    await user.type(await screen.findByLabelText('Username'), 'newbie');
    await user.type(screen.getByLabelText('Password'), 'abcdef');
    await user.type(screen.getByLabelText('Confirm Password'), 'abcdef');
    await user.click(screen.getByRole('button', { name: 'Create Account and Join' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to complete signup. Please try again.');
  });
});
