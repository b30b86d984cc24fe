import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse } from '@confab/client/testing/fakeBackend';
import { RegisterScreen } from './RegisterScreen';

const existing = { username: 'alice', email: 'alice@example.com', name: 'Alice', password: 'wonderland' };

function setup(props: { source?: string; userType?: string } = {}) {
  return renderWithConfab(<RegisterScreen {...props} />, { backend: createFakeBackend({ users: [existing] }) });
}

type Values = { email?: string; username?: string; password?: string; confirm?: string };

async function fill(user: ReturnType<typeof setup>['user'], values: Values) {
  if (values.email) await user.type(screen.getByLabelText('Email'), values.email);
  if (values.username) await user.type(screen.getByLabelText('Username'), values.username);
  if (values.password) await user.type(screen.getByLabelText('Password'), values.password);
  if (values.confirm) await user.type(screen.getByLabelText('Confirm Password'), values.confirm);
}

const fields = () => ['Email', 'Username', 'Password', 'Confirm Password'].map((label) => screen.getByLabelText(label));

describe('RegisterScreen', () => {
  it('shows the form with every field labelled and a link to sign in', () => {
    setup();
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeInTheDocument();
    for (const field of fields()) expect(field).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });

  it.each<[string, Values, string]>([
    ['all empty', {}, 'Please fill in all fields'],
    ['confirm missing', { email: 'bob@example.com', username: 'bob', password: 'longenough' }, 'Please fill in all fields'],
    ['mismatch', { email: 'bob@example.com', username: 'bob', password: 'longenough', confirm: 'different1' }, 'Passwords do not match'],
    ['short', { email: 'bob@example.com', username: 'bob', password: 'short12', confirm: 'short12' }, 'Password must be at least 8 characters'],
  ])('validates before calling the server (%s)', async (_case, values, message) => {
    const { user, backend } = setup();
    await fill(user, values);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(backend.requests).toHaveLength(0);
  });

  it('disables every field while submitting', async () => {
    const { user, backend } = setup();
    const release = backend.hold();
    await fill(user, { email: 'bob@example.com', username: 'bob', password: 'longenough', confirm: 'longenough' });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    for (const field of fields()) expect(field).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Creating account...' })).toBeDisabled();
    release();
    expect(await screen.findByRole('status')).toBeInTheDocument();
  });

  it('registers, signs in, and goes to / after 0.5 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { user, navigate, client, backend } = setup({ source: 'main-landing', userType: 'mixed' });
    await fill(user, { email: 'bob@example.com', username: 'bob', password: 'longenough', confirm: 'longenough{Enter}' });
    expect(await screen.findByRole('status')).toHaveTextContent('Account created!');
    expect(client.store.getState()).toMatchObject({ isAuthenticated: true, user: { username: 'bob' } });
    expect(backend.requests.find((request) => request.route.endsWith('/records'))?.body).toMatchObject({
      email: 'bob@example.com',
      username: 'bob',
      source: 'main-landing',
      user_type: 'mixed',
    });
    for (const field of fields()) expect(field).toBeDisabled();
    // Waiting for the status may advance the fake clock by one 50 ms poll: 400 ms more is still early.
    expect(navigate).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(400));
    expect(navigate).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(100));
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it("joins the server's field errors as 'Email: …. Username: …'", async () => {
    const { user, navigate } = setup();
    await fill(user, { email: 'alice@example.com', username: 'alice', password: 'longenough', confirm: 'longenough' });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Email: The email is invalid or already in use. Username: The username is invalid or already in use');
    expect(navigate).not.toHaveBeenCalled();
    for (const field of fields()) expect(field).toBeEnabled();
  });

  it("shows the server message, or 'Registration failed. Please try again.'", async () => {
    const { user, backend } = setup();
    backend.override('POST /api/collections/users/records', () => errorResponse(429, 'Too many sign-ups from this address.'));
    await fill(user, { email: 'bob@example.com', username: 'bob', password: 'longenough', confirm: 'longenough' });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many sign-ups from this address.');

    backend.override('POST /api/collections/users/records', () => new Response('oops', { status: 500 }));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Registration failed. Please try again.')).toBeInTheDocument();
  });
});
