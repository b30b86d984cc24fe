import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse } from '@confab/client/testing/fakeBackend';
import { ForgotPasswordScreen } from './ForgotPasswordScreen';

const sentMessage = 'Password reset email sent! Check your inbox and follow the instructions to reset your password.';

function setup() {
  return renderWithConfab(<ForgotPasswordScreen />, { backend: createFakeBackend() });
}

describe('ForgotPasswordScreen', () => {
  it('shows the form and a way back to login', () => {
    setup();
    expect(screen.getByRole('heading', { name: 'Forgot Password' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByRole('button', { name: 'Send Reset Link' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Back to Login' })).toHaveAttribute('href', '/login');
  });

  it('requires an e-mail address', async () => {
    const { user, backend } = setup();
    await user.type(screen.getByLabelText('Email'), '   ');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter your email address');
    expect(backend.requests).toHaveLength(0);
  });

  it('sends the request on Enter, shows "Sending..." meanwhile, then the success text', async () => {
    const { user, backend } = setup();
    const release = backend.hold();
    await user.type(screen.getByLabelText('Email'), ' alice@example.com {Enter}');
    expect(screen.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    expect(screen.getByLabelText('Email')).toBeDisabled();
    release();
    expect(await screen.findByRole('status')).toHaveTextContent(sentMessage);
    expect(backend.requests).toEqual([
      { route: 'POST /api/collections/users/request-password-reset', body: { email: 'alice@example.com' } },
    ]);
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Login' })).toBeInTheDocument();
  });

  it("maps a 404 to 'No account found with that email address'", async () => {
    const { user, backend } = setup();
    backend.override('POST /api/collections/users/request-password-reset', () => errorResponse(404, 'Not found.'));
    await user.type(screen.getByLabelText('Email'), 'nobody@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No account found with that email address');
  });

  it('maps any other failure to the generic message and lets the user retry', async () => {
    const { user, backend } = setup();
    backend.override('POST /api/collections/users/request-password-reset', () => errorResponse(429, 'Too Many Requests.'));
    await user.type(screen.getByLabelText('Email'), 'alice@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to send password reset email. Please try again.');
    expect(screen.getByRole('button', { name: 'Send Reset Link' })).toBeEnabled();
  });
});
