import { stripUnsafeCharacters } from '@confab/client/rules';
import { fieldErrors, type FieldError, type FieldErrors } from '../errors';
import type { UsersRepository } from '../store/repositories/users';

/** docs/PRODUCT.md §5 and the issue: letters, digits, `_`, `-`, `.`; 3–50 characters. */
export const usernamePattern = /^[A-Za-z0-9_.-]{3,50}$/;
export const registerPasswordMinimum = 8;
export const resetPasswordMinimum = 6;
export const passwordMaximum = 256;

/** A pragmatic e-mail check: one @, no spaces, a dot in the domain. */
export function isValidEmail(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}

export function validatePasswordPair(
  errors: FieldErrors,
  password: string | undefined,
  passwordConfirm: string | undefined,
  minimum: number,
): void {
  if (password === undefined || password === '') {
    errors['password'] = fieldErrors.required();
  } else if (password.length < minimum || password.length > passwordMaximum) {
    errors['password'] = fieldErrors.length(minimum, passwordMaximum);
  }
  if (passwordConfirm === undefined || passwordConfirm === '') {
    errors['passwordConfirm'] = fieldErrors.required();
  } else if (password !== undefined && password !== passwordConfirm) {
    errors['passwordConfirm'] = fieldErrors.mismatch();
  }
}

/**
 * Names nobody may register: they would pass for the server, its operators, the built-in agents
 * or a temporary account (`user_…`, docs/PRODUCT.md §3). Compared case-insensitively.
 */
export const reservedUsernames = ['admin', 'administrator', 'root', 'system', 'confab', 'email', 'deep', 'browse', 'data', 'drops'] as const;
export const temporaryUsernamePrefix = 'user_';

export function isReservedUsername(username: string): boolean {
  const lowered = username.toLowerCase();
  return (reservedUsernames as readonly string[]).includes(lowered) || lowered.startsWith(temporaryUsernamePrefix);
}

const reservedError = (): FieldError => ({ code: 'validation_username_reserved', message: 'This username is reserved. Please choose another.' });

/**
 * A username chosen by a person: the pattern, not reserved, not taken. `current` is the user's
 * own present username, which they may keep even if it would not be allowed today.
 */
export async function validateUsername(
  errors: FieldErrors,
  users: UsersRepository,
  username: string | undefined,
  options: { exceptId?: string; current?: string } = {},
): Promise<void> {
  if (username === undefined || username === '') {
    errors['username'] = fieldErrors.required();
  } else if (!usernamePattern.test(username)) {
    errors['username'] = fieldErrors.format();
  } else if (username !== options.current && isReservedUsername(username)) {
    errors['username'] = reservedError();
  } else if (await users.usernameTaken(username, options.exceptId)) {
    errors['username'] = fieldErrors.identityTaken('username');
  }
}

export const displayNameMaximum = 200;

/** A display name as stored: without controls or bidi overrides, trimmed, at most 200 characters. */
export function cleanDisplayName(name: string): string {
  return stripUnsafeCharacters(name).trim().slice(0, displayNameMaximum);
}

export async function validateEmail(
  errors: FieldErrors,
  users: UsersRepository,
  email: string | undefined,
  required: boolean,
): Promise<void> {
  if (email === undefined || email === '') {
    if (required) errors['email'] = fieldErrors.required();
  } else if (!isValidEmail(email)) {
    errors['email'] = fieldErrors.email();
  } else if (await users.emailTaken(email)) {
    errors['email'] = fieldErrors.identityTaken('email');
  }
}
