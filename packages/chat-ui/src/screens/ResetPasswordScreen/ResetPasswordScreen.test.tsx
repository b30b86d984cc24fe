import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend } from '@confab/client/testing/fakeBackend';
import { ResetPasswordScreen } from './ResetPasswordScreen';

const validToken = 'valid-reset-token';

function setup(token: string | null) {
  const backend = createFakeBackend();
  backend.resetTokens.add(validToken);
  return renderWithConfab(<ResetPasswordScreen token={token} />, { backend });
}

async function submit(user: ReturnType<typeof setup>['user'], password: string, confirm: string) {
  if (password) await user.type(screen.getByLabelText('New Password'), password);
  if (confirm) await user.type(screen.getByLabelText('Confirm New Password'), confirm);
  await user.click(screen.getByRole('button', { name: 'Reset Password' }));
}

describe('ResetPasswordScreen without a token', () => {
  it.each([null, '', '  '])('explains the problem and offers ways out (token %j)', async (token) => {
    const { user, navigate } = setup(token);
    expect(screen.getByRole('heading', { name: 'Reset Your Password' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid or missing reset token. Please request a new password reset.');
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Request New Reset' }));
    expect(navigate).toHaveBeenLastCalledWith('/forgot-password');
    await user.click(screen.getByRole('button', { name: 'Back to Login' }));
    expect(navigate).toHaveBeenLastCalledWith('/login');
  });
});

describe('ResetPasswordScreen with a token', () => {
  it('shows the Set New Password form', () => {
    setup(validToken);
    expect(screen.getByRole('heading', { name: 'Set New Password' })).toBeInTheDocument();
    expect(screen.getByLabelText('New Password')).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText('Confirm New Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Reset Password' })).toBeEnabled();
  });

  it.each([
    ['both empty', '', '', 'Please enter your new password in both fields'],
    ['confirm empty', 'secret1', '', 'Please enter your new password in both fields'],
    ['mismatch', 'secret1', 'secret2', 'Passwords do not match'],
    ['too short', 'abc12', 'abc12', 'Password must be at least 6 characters long'],
  ])('validates before calling the server (%s)', async (_case, password, confirm, message) => {
    const { user, backend } = setup(validToken);
    await submit(user, password, confirm);
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(backend.requests).toHaveLength(0);
  });

  it('resets the password, announces it, and goes to /login after 2 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { user, navigate, backend } = setup(validToken);
    await submit(user, 'new-secret', 'new-secret');
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Password reset successful! You can now log in with your new password.',
    );
    expect(backend.requests.at(-1)).toEqual({
      route: 'POST /api/collections/users/confirm-password-reset',
      body: { token: validToken, password: 'new-secret', passwordConfirm: 'new-secret' },
    });
    expect(screen.getByLabelText('New Password')).toBeDisabled();
    act(() => vi.advanceTimersByTime(1900));
    expect(navigate).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(100));
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('disables the fields while submitting', async () => {
    const { user, backend } = setup(validToken);
    const release = backend.hold();
    await submit(user, 'new-secret', 'new-secret');
    expect(screen.getByLabelText('New Password')).toBeDisabled();
    expect(screen.getByLabelText('Confirm New Password')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Resetting...' })).toBeDisabled();
    release();
    expect(await screen.findByRole('status')).toBeInTheDocument();
  });

  it("maps a 400 (bad or used token) to 'Invalid or expired reset token…'", async () => {
    const { user, navigate } = setup('used-or-forged');
    await submit(user, 'new-secret', 'new-secret');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Invalid or expired reset token. Please request a new password reset.',
    );
    expect(navigate).not.toHaveBeenCalled();
  });

  it('maps other failures to the generic message', async () => {
    const { user, backend } = setup(validToken);
    backend.override('POST /api/collections/users/confirm-password-reset', () => new Response('', { status: 503 }));
    await submit(user, 'new-secret', 'new-secret');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to reset password. Please try again or request a new reset.',
    );
  });
});
