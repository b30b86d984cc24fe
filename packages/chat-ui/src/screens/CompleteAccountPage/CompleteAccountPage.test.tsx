import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserRecord } from '@confab/client';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse, fakeToken, json, userRecord, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { CompleteAccountPage } from './CompleteAccountPage';

const temp = { id: 'tempuser000001', username: 'user_abcdefghij', email: 'user_abcdefghij@temporary.confab.invalid', name: 'Ada', password: 'temp-pass' };

function signIn(result: ReturnType<typeof renderWithConfab>, overrides: Partial<UserRecord> = {}) {
  const record = { ...(userRecord(temp) as unknown as UserRecord), soft_registered: true, signup_completed: false, ...overrides };
  act(() => result.client.pb.authStore.save(fakeToken(temp.id), record as never));
}

function setup(configure?: (backend: FakeBackend) => void, overrides: Partial<UserRecord> = {}, signedIn = true) {
  const backend = createFakeBackend({ users: [temp] });
  backend.override('POST /api/complete-account', (_request, body) => {
    if (body['username'] === 'taken') return errorResponse(400, 'Failed.', { username: { code: 'validation_not_unique', message: 'Username already taken.' } });
    const user = backend.users[0]!;
    Object.assign(user, { username: body['username'], email: body['email'], password: body['password'] });
    return json(200, { message: 'Account completed' });
  });
  configure?.(backend);
  const result = renderWithConfab(<CompleteAccountPage />, { backend });
  if (signedIn) signIn(result, overrides);
  return result;
}

async function fill(user: ReturnType<typeof setup>['user'], values: { email?: string; username?: string; password?: string; confirm?: string }) {
  if (values.email) await user.type(screen.getByLabelText('Email'), values.email);
  if (values.username) await user.type(screen.getByLabelText('Username'), values.username);
  if (values.password) await user.type(screen.getByLabelText('Password'), values.password);
  if (values.confirm) await user.type(screen.getByLabelText('Confirm Password'), values.confirm);
  await user.click(screen.getByRole('button', { name: 'Secure Account' }));
}

afterEach(() => vi.useRealTimers());

describe('CompleteAccountPage', () => {
  it.each([
    ['a signed-out visitor', {}, false],
    ['a full user', { soft_registered: false }, true],
    ['a completed user', { signup_completed: true }, true],
  ] as const)('shows "Account Already Complete" to %s', async (_case, overrides, signedIn) => {
    const { user, navigate } = setup(undefined, overrides, signedIn);
    expect(screen.getByRole('heading', { name: 'Account Already Complete' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to Dashboard' }));
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('shows the form, leaving temporary values out, with "What happens next?"', () => {
    setup();
    expect(screen.getByRole('heading', { name: 'Secure Your Account' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.getByLabelText('Username')).toHaveValue('');
    expect(screen.getByRole('heading', { name: 'What happens next?' })).toBeInTheDocument();
  });

  it('prefills a non-temporary e-mail and username', () => {
    setup(undefined, { email: 'ada@example.com', username: 'ada' });
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Username')).toHaveValue('ada');
  });

  it.each([
    [{ email: 'a@b.co', username: 'ada', password: 'longpass' }, 'All fields are required'],
    [{ email: 'a@b.co', username: 'ada', password: 'longpass', confirm: 'different' }, 'Passwords do not match'],
    [{ email: 'a@b.co', username: 'ada', password: 'short', confirm: 'short' }, 'Password must be at least 8 characters'],
    [{ email: 'not-an-email', username: 'ada', password: 'longpass', confirm: 'longpass' }, 'Please enter a valid email address'],
  ])('validates %j', async (values, message) => {
    const { user, backend } = setup();
    await fill(user, values);
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(backend.requests.some((request) => request.route === 'POST /api/complete-account')).toBe(false);
  });

  it('shows the first field error', async () => {
    const { user } = setup();
    await fill(user, { email: 'ada@example.com', username: 'taken', password: 'longpass', confirm: 'longpass' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Username: Username already taken.');
  });

  it('completes, re-authenticates and goes to / after 3 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { user, backend, navigate, client } = setup();
    await fill(user, { email: '  Ada@Example.COM ', username: 'ada', password: 'longpass', confirm: 'longpass' });
    expect(await screen.findByRole('status')).toHaveTextContent('Your account is secured!');
    expect(backend.requests.find((request) => request.route === 'POST /api/complete-account')?.body).toEqual({ email: 'ada@example.com', username: 'ada', password: 'longpass' });
    expect(client.store.getState().user?.username).toBe('ada');
    act(() => vi.advanceTimersByTime(2999));
    expect(navigate).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('falls back to "Account updated! Please log in with your new credentials." when re-authentication fails', async () => {
    const { user } = setup((backend) => backend.override('POST /api/collections/users/auth-with-password', () => errorResponse(400, 'Failed to authenticate.')));
    await fill(user, { email: 'ada@example.com', username: 'ada', password: 'longpass', confirm: 'longpass' });
    expect(await screen.findByRole('status')).toHaveTextContent('Account updated! Please log in with your new credentials.');
  });
});
