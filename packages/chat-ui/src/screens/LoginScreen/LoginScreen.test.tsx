import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse } from '@confab/client/testing/fakeBackend';
import { LoginScreen } from './LoginScreen';

const alice = { username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };

function setup(redirectTo?: string) {
  const backend = createFakeBackend({ users: [alice] });
  return renderWithConfab(<LoginScreen redirectTo={redirectTo} />, { backend });
}

describe('LoginScreen', () => {
  it('shows the sign-in form with labelled fields and links', () => {
    setup();
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveAttribute('autocomplete', 'username');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/register');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each([
    ['both empty', '', ''],
    ['password empty', 'alice', ''],
    ['username blank', '   ', 'secret'],
  ])('requires both fields (%s) without calling the server', async (_case, username, password) => {
    const { user, backend } = setup();
    if (username) await user.type(screen.getByLabelText('Username'), username);
    if (password) await user.type(screen.getByLabelText('Password'), password);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter both username and password');
    expect(backend.requests).toHaveLength(0);
  });

  it('signs in on Enter and goes to the redirect target', async () => {
    const { user, navigate, client } = setup('/join/abc123');
    await user.type(screen.getByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'wonderland{Enter}');
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(navigate).toHaveBeenCalledWith('/join/abc123', { replace: true });
    expect(client.store.getState().user?.username).toBe('alice');
  });

  it("goes to '/' by default and accepts the e-mail as identity", async () => {
    const { user, navigate } = setup();
    await user.type(screen.getByLabelText('Username'), 'alice@example.com');
    await user.type(screen.getByLabelText('Password'), 'wonderland');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(navigate).toHaveBeenCalledWith('/', { replace: true });
  });

  it('disables the form while submitting', async () => {
    const { user, backend } = setup();
    const release = backend.hold();
    await user.type(screen.getByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'wonderland');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByRole('button', { name: 'Signing in...' })).toBeDisabled();
    expect(screen.getByLabelText('Username')).toBeDisabled();
    expect(screen.getByLabelText('Password')).toBeDisabled();
    release();
  });

  it("shows the server's message when the credentials are wrong", async () => {
    const { user, navigate } = setup();
    await user.type(screen.getByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to authenticate.');
    expect(navigate).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  it("falls back to 'Login failed. Please try again.' when the server gives no message", async () => {
    const { user, backend } = setup();
    backend.override('POST /api/collections/users/auth-with-password', () => new Response('<html>', { status: 502 }));
    await user.type(screen.getByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'wonderland');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Login failed. Please try again.');
  });

  it('shows a rate-limit answer verbatim', async () => {
    const { user, backend } = setup();
    backend.override('POST /api/collections/users/auth-with-password', () => errorResponse(429, 'Too many attempts. Try again in a minute.'));
    await user.type(screen.getByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'wonderland');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Try again in a minute.');
  });
});
