import { ClientResponseError } from 'pocketbase';
import { describe, expect, it } from 'vitest';
import { ConfabError } from '../errors';
import {
  completeAccountErrorMessage,
  forgotPasswordErrorMessage,
  loginErrorMessage,
  registerErrorMessage,
  resetPasswordErrorMessage,
} from './serverErrors';

/** A ClientResponseError exactly as the SDK builds one from a response (status + JSON body). */
function responseError(status: number, body: Record<string, unknown>): ClientResponseError {
  return new ClientResponseError({ url: 'http://127.0.0.1/api/x', status, data: body });
}

/** As the SDK builds one when fetch itself rejects (no response). */
function networkError(): ClientResponseError {
  return new ClientResponseError(new TypeError('fetch failed'));
}

const field = (message: string, code = 'validation_invalid_value') => ({ code, message });

describe('loginErrorMessage', () => {
  it.each([
    [responseError(400, { status: 400, message: 'Failed to authenticate.', data: {} }), 'Failed to authenticate.'],
    [responseError(429, { status: 429, message: 'Too Many Requests.', data: {} }), 'Too Many Requests.'],
    [responseError(500, {}), 'Login failed. Please try again.'],
    [networkError(), 'Login failed. Please try again.'],
    [new Error('boom'), 'Login failed. Please try again.'],
    [undefined, 'Login failed. Please try again.'],
  ])('%#: %s', (error, expected) => {
    expect(loginErrorMessage(error)).toBe(expected);
  });
});

describe('registerErrorMessage', () => {
  it.each([
    [
      responseError(400, {
        status: 400,
        message: 'Failed to create record.',
        data: { email: field('The email is invalid or already in use.', 'validation_not_unique') },
      }),
      'Email: The email is invalid or already in use',
    ],
    [
      responseError(400, {
        status: 400,
        message: 'Failed to create record.',
        data: {
          username: field('The username is invalid or already in use.', 'validation_not_unique'),
          email: field('Must be a valid email address.', 'validation_is_email'),
        },
      }),
      'Email: Must be a valid email address. Username: The username is invalid or already in use',
    ],
    [
      responseError(400, {
        status: 400,
        message: 'Failed to create record.',
        data: { passwordConfirm: field("Values don't match.", 'validation_values_mismatch') },
      }),
      "Password: Values don't match",
    ],
    [
      responseError(400, {
        status: 400,
        message: 'Failed to create record.',
        data: {
          password: field('Must be at least 8 character(s).', 'validation_min_text_constraint'),
          passwordConfirm: field("Values don't match.", 'validation_values_mismatch'),
        },
      }),
      "Password: Must be at least 8 character(s). Password: Values don't match",
    ],
    [responseError(400, { status: 400, message: 'Failed to create record.', data: {} }), 'Failed to create record.'],
    [responseError(503, {}), 'Registration failed. Please try again.'],
    [networkError(), 'Registration failed. Please try again.'],
  ])('%#: %s', (error, expected) => {
    expect(registerErrorMessage(error)).toBe(expected);
  });
});

describe('completeAccountErrorMessage', () => {
  it.each([
    [
      responseError(400, {
        message: 'Failed to complete account.',
        data: { username: field('Username is taken.'), password: field('Too short.') },
      }),
      'Username: Username is taken.',
    ],
    [responseError(400, { message: 'Failed.', data: { email: field('Invalid email.') } }), 'Email: Invalid email.'],
    [responseError(400, { message: 'Failed.', data: { password: 'Too weak.' } }), 'Password: Too weak.'],
    [responseError(400, { message: 'Failed.', data: {} }), 'Account completion failed. Please try again.'],
    [networkError(), 'Account completion failed. Please try again.'],
  ])('%#: %s', (error, expected) => {
    expect(completeAccountErrorMessage(error)).toBe(expected);
  });
});

describe('forgotPasswordErrorMessage', () => {
  it.each([
    [responseError(404, { message: "The requested resource wasn't found." }), 'No account found with that email address'],
    [responseError(400, { message: 'Bad.' }), 'Failed to send password reset email. Please try again.'],
    [responseError(429, { message: 'Too Many Requests.' }), 'Failed to send password reset email. Please try again.'],
    [networkError(), 'Failed to send password reset email. Please try again.'],
  ])('%#: %s', (error, expected) => {
    expect(forgotPasswordErrorMessage(error)).toBe(expected);
  });
});

describe('resetPasswordErrorMessage', () => {
  it.each([
    [
      responseError(400, { message: 'Failed.', data: { token: field('Invalid or expired token.', 'validation_invalid_token') } }),
      'Invalid or expired reset token. Please request a new password reset.',
    ],
    [responseError(500, {}), 'Failed to reset password. Please try again or request a new reset.'],
    [new ConfabError('x', 0), 'Failed to reset password. Please try again or request a new reset.'],
  ])('%#: %s', (error, expected) => {
    expect(resetPasswordErrorMessage(error)).toBe(expected);
  });
});
