import { constants } from '../constants';
import { messages } from './messages';

/*
 * Account form rules of docs/PRODUCT.md §5. Each returns null when valid, else the exact message of
 * the first failing rule, checked in the order docs/PRODUCT.md §5 gives. Text fields count as empty
 * when blank after trimming; passwords are never trimmed (spaces are valid password characters).
 */

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isBlank(value: string | null | undefined): boolean {
  return value === undefined || value === null || value.trim() === '';
}

function isMissingPassword(value: string | null | undefined): boolean {
  return value === undefined || value === null || value === '';
}

export function isValidEmail(email: string): boolean {
  return emailPattern.test(email.trim());
}

export function validateLogin(values: { username: string; password: string }): string | null {
  if (isBlank(values.username) || isMissingPassword(values.password)) return messages.loginFieldsRequired;
  return null;
}

export function validateRegister(values: {
  email: string;
  username: string;
  password: string;
  confirmPassword: string;
}): string | null {
  if (
    isBlank(values.email) ||
    isBlank(values.username) ||
    isMissingPassword(values.password) ||
    isMissingPassword(values.confirmPassword)
  ) {
    return messages.registerFieldsRequired;
  }
  if (values.password !== values.confirmPassword) return messages.passwordsDoNotMatch;
  if (values.password.length < constants.passwordMinLength.register) return messages.passwordMinLength8;
  return null;
}

/** Join screen's complete-signup form for a new user invited by e-mail. */
export function validateInvitationSignup(values: {
  username: string;
  password: string;
  confirmPassword: string;
}): string | null {
  if (isBlank(values.username)) return messages.usernameRequired;
  if (values.password.length < constants.passwordMinLength.invitationSignup) return messages.passwordMinLength6;
  if (values.password !== values.confirmPassword) return messages.passwordsDoNotMatch;
  return null;
}

/** The display name is optional and falls back to the username (docs/PRODUCT.md §5). */
export function resolveDisplayName(username: string, displayName?: string | null): string {
  const trimmed = displayName?.trim() ?? '';
  return trimmed === '' ? username.trim() : trimmed;
}

/** Join screen's name-only form for shareable links. */
export function validateShareableName(values: { name: string }): string | null {
  return isBlank(values.name) ? messages.shareableNameRequired : null;
}

/** The /complete-signup link must carry user_id, chat_id and temp_password. */
export function validateCompleteSignupLink(values: {
  userId?: string | null;
  chatId?: string | null;
  tempPassword?: string | null;
}): string | null {
  if (isBlank(values.userId) || isBlank(values.chatId) || isMissingPassword(values.tempPassword)) {
    return messages.invalidSignupLink;
  }
  return null;
}

/** The /complete-signup page form: username required, display name optional. */
export function validateCompleteSignup(values: { username: string }): string | null {
  return isBlank(values.username) ? messages.usernameRequired : null;
}

export interface CompleteAccountValues {
  email: string;
  username: string;
  password: string;
  confirmPassword: string;
}

export function validateCompleteAccount(values: CompleteAccountValues): string | null {
  if (
    isBlank(values.email) ||
    isBlank(values.username) ||
    isMissingPassword(values.password) ||
    isMissingPassword(values.confirmPassword)
  ) {
    return messages.allFieldsRequired;
  }
  if (values.password !== values.confirmPassword) return messages.passwordsDoNotMatch;
  if (values.password.length < constants.passwordMinLength.completeAccount) return messages.passwordMinLength8;
  if (!isValidEmail(values.email)) return messages.invalidEmail;
  return null;
}

/** The POST /api/complete-account body: e-mail lower-cased and trimmed on submit (docs/PRODUCT.md §5). */
export function normalizeCompleteAccount(values: CompleteAccountValues): {
  email: string;
  username: string;
  password: string;
} {
  return { email: values.email.trim().toLowerCase(), username: values.username.trim(), password: values.password };
}

export function validateForgotPassword(values: { email: string }): string | null {
  return isBlank(values.email) ? messages.emailRequired : null;
}

/** Set New Password (reset) form. */
export function validateNewPassword(values: { password: string; confirmPassword: string }): string | null {
  if (isMissingPassword(values.password) || isMissingPassword(values.confirmPassword)) {
    return messages.newPasswordBothFields;
  }
  if (values.password !== values.confirmPassword) return messages.passwordsDoNotMatch;
  if (values.password.length < constants.passwordMinLength.setNewPassword) return messages.passwordMinLength6;
  return null;
}

/** /reset-password without a token query parameter. */
export function validateResetToken(token: string | null | undefined): string | null {
  return isBlank(token) ? messages.missingResetToken : null;
}
