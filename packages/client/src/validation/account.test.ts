import { describe, expect, it } from 'vitest';
import {
  normalizeCompleteAccount,
  resolveDisplayName,
  validateCompleteAccount,
  validateCompleteSignup,
  validateCompleteSignupLink,
  validateForgotPassword,
  validateInvitationSignup,
  validateLogin,
  validateNewPassword,
  validateRegister,
  validateResetToken,
  validateShareableName,
} from './account';

// Expected texts are copied verbatim from docs/PRODUCT.md §5 and §8, not from ./messages.

describe('validateLogin', () => {
  it.each([
    [{ username: '', password: '' }, 'Please enter both username and password'],
    [{ username: 'alice', password: '' }, 'Please enter both username and password'],
    [{ username: '   ', password: 'secret' }, 'Please enter both username and password'],
    [{ username: 'alice', password: 'secret' }, null],
  ])('%j → %s', (values, expected) => {
    expect(validateLogin(values)).toBe(expected);
  });
});

describe('validateRegister', () => {
  const valid = { email: 'a@example.com', username: 'alice', password: 'longenough', confirmPassword: 'longenough' };
  it.each([
    [{ ...valid, email: '' }, 'Please fill in all fields'],
    [{ ...valid, username: ' ' }, 'Please fill in all fields'],
    [{ ...valid, password: '' }, 'Please fill in all fields'],
    [{ ...valid, confirmPassword: '' }, 'Please fill in all fields'],
    [{ ...valid, confirmPassword: 'different1' }, 'Passwords do not match'],
    [{ ...valid, password: 'short', confirmPassword: 'short' }, 'Password must be at least 8 characters'],
    [{ ...valid, password: '1234567', confirmPassword: '1234567' }, 'Password must be at least 8 characters'],
    [{ ...valid, password: '12345678', confirmPassword: '12345678' }, null],
    [valid, null],
  ])('%j → %s', (values, expected) => {
    expect(validateRegister(values)).toBe(expected);
  });
});

describe('validateInvitationSignup', () => {
  const valid = { username: 'bob', password: 'sixsix', confirmPassword: 'sixsix' };
  it.each([
    [{ ...valid, username: '' }, 'Please enter a username'],
    [{ ...valid, password: '12345', confirmPassword: '12345' }, 'Password must be at least 6 characters long'],
    [{ ...valid, confirmPassword: 'sixsiy' }, 'Passwords do not match'],
    [valid, null],
  ])('%j → %s', (values, expected) => {
    expect(validateInvitationSignup(values)).toBe(expected);
  });

  it('defaults the display name to the username', () => {
    expect(resolveDisplayName('bob', '')).toBe('bob');
    expect(resolveDisplayName('bob', '  ')).toBe('bob');
    expect(resolveDisplayName('bob')).toBe('bob');
    expect(resolveDisplayName('bob', ' Bob B. ')).toBe('Bob B.');
  });
});

describe('validateShareableName', () => {
  it.each([
    ['', 'Please enter your name'],
    ['  ', 'Please enter your name'],
    ['Carol', null],
  ])('%j → %s', (name, expected) => {
    expect(validateShareableName({ name })).toBe(expected);
  });
});

describe('complete-signup page', () => {
  it.each([
    [{ userId: 'u1', chatId: 'c1', tempPassword: 'tmp' }, null],
    [{ userId: '', chatId: 'c1', tempPassword: 'tmp' }, 'Invalid signup link. Please request a new invitation.'],
    [{ userId: 'u1', chatId: null, tempPassword: 'tmp' }, 'Invalid signup link. Please request a new invitation.'],
    [{ userId: 'u1', chatId: 'c1' }, 'Invalid signup link. Please request a new invitation.'],
  ])('link %j → %s', (values, expected) => {
    expect(validateCompleteSignupLink(values)).toBe(expected);
  });

  it('requires a username', () => {
    expect(validateCompleteSignup({ username: '' })).toBe('Please enter a username');
    expect(validateCompleteSignup({ username: 'dave' })).toBeNull();
  });
});

describe('validateCompleteAccount', () => {
  const valid = { email: 'erin@example.com', username: 'erin', password: 'longenough', confirmPassword: 'longenough' };
  it.each([
    [{ ...valid, email: '' }, 'All fields are required'],
    [{ ...valid, username: '' }, 'All fields are required'],
    [{ ...valid, password: '', confirmPassword: '' }, 'All fields are required'],
    [{ ...valid, confirmPassword: 'longenougH' }, 'Passwords do not match'],
    [{ ...valid, password: '1234567', confirmPassword: '1234567' }, 'Password must be at least 8 characters'],
    [{ ...valid, email: 'not-an-email' }, 'Please enter a valid email address'],
    [{ ...valid, email: 'erin@localhost' }, 'Please enter a valid email address'],
    [{ ...valid, email: '  Erin@Example.COM ' }, null],
    [valid, null],
  ])('%j → %s', (values, expected) => {
    expect(validateCompleteAccount(values)).toBe(expected);
  });

  it('lower-cases and trims the e-mail on submit', () => {
    expect(normalizeCompleteAccount({ ...valid, email: '  Erin@Example.COM ', username: ' erin ' })).toEqual({
      email: 'erin@example.com',
      username: 'erin',
      password: 'longenough',
    });
  });
});

describe('validateForgotPassword', () => {
  it.each([
    ['', 'Please enter your email address'],
    [' ', 'Please enter your email address'],
    ['a@example.com', null],
  ])('%j → %s', (email, expected) => {
    expect(validateForgotPassword({ email })).toBe(expected);
  });
});

describe('validateNewPassword', () => {
  it.each([
    [{ password: '', confirmPassword: '' }, 'Please enter your new password in both fields'],
    [{ password: 'abcdef', confirmPassword: '' }, 'Please enter your new password in both fields'],
    [{ password: 'abcdef', confirmPassword: 'abcdeg' }, 'Passwords do not match'],
    [{ password: 'abcde', confirmPassword: 'abcde' }, 'Password must be at least 6 characters long'],
    [{ password: 'abcdef', confirmPassword: 'abcdef' }, null],
  ])('%j → %s', (values, expected) => {
    expect(validateNewPassword(values)).toBe(expected);
  });

  it('reports a missing reset token', () => {
    expect(validateResetToken(null)).toBe('Invalid or missing reset token. Please request a new password reset.');
    expect(validateResetToken('')).toBe('Invalid or missing reset token. Please request a new password reset.');
    expect(validateResetToken('abc')).toBeNull();
  });
});
