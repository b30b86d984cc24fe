import { fieldErrors, type FieldErrors } from '../errors';
import type { UsersRepository } from '../store/repositories/users';

/** Spec §5 and the issue: letters, digits, `_`, `-`, `.`; 3–50 characters. */
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

export async function validateUsername(
  errors: FieldErrors,
  users: UsersRepository,
  username: string | undefined,
  exceptId?: string,
): Promise<void> {
  if (username === undefined || username === '') {
    errors['username'] = fieldErrors.required();
  } else if (!usernamePattern.test(username)) {
    errors['username'] = fieldErrors.format();
  } else if (await users.usernameTaken(username, exceptId)) {
    errors['username'] = fieldErrors.identityTaken('username');
  }
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
