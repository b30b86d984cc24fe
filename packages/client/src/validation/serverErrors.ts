import { toConfabError } from '../errors';
import type { ConfabError } from '../errors';
import { messages } from './messages';

/* Server-error mapping of docs/PRODUCT.md §8: what a screen shows for a failed call. */

const fieldLabels: ReadonlyArray<readonly [field: string, label: string]> = [
  ['email', 'Email'],
  ['username', 'Username'],
  ['password', 'Password'],
  // A mismatched confirmation is a password problem to the person filling the form.
  ['passwordConfirm', 'Password'],
];

// Server messages end with '.', and the parts are joined with '. ': drop it to avoid '..'.
function withoutFinalPeriod(text: string): string {
  return text.trim().replace(/\.+$/, '');
}

function labelledFieldErrors(error: ConfabError, format: (message: string) => string): string[] {
  const parts: string[] = [];
  for (const [field, label] of fieldLabels) {
    const fieldError = error.fieldErrors[field];
    if (fieldError === undefined || fieldError.message.trim() === '') continue;
    const part = `${label}: ${format(fieldError.message.trim())}`;
    if (!parts.includes(part)) parts.push(part);
  }
  return parts;
}

/**
 * For a request that got no answer, 'Cannot reach the Confab server at … — is this site's origin in
 * CONFAB_ALLOWED_ORIGINS?'; else the server's message; else `fallback`. The texts of docs/PRODUCT.md
 * §8 are for answers the server gave; a generic 'Please try again' would hide why nothing works.
 */
export function failureMessage(error: unknown, fallback: string): string {
  const failure = toConfabError(error);
  if (failure.isNetworkFailure) return failure.message;
  return failure.serverMessage ?? fallback;
}

/** The server's message, or 'Login failed. Please try again.' (or that the server cannot be reached). */
export function loginErrorMessage(error: unknown): string {
  return failureMessage(error, messages.loginFailed);
}

/** Field errors as 'Email: …. Username: …', else the server message, else the fallback. */
export function registerErrorMessage(error: unknown): string {
  const confabError = toConfabError(error);
  if (confabError.isNetworkFailure) return confabError.message;
  const parts = labelledFieldErrors(confabError, withoutFinalPeriod);
  if (parts.length > 0) return parts.join('. ');
  return confabError.serverMessage ?? messages.registrationFailed;
}

/** The first field error as 'Email: …', 'Username: …' or 'Password: …', else the fallback. */
export function completeAccountErrorMessage(error: unknown): string {
  const failure = toConfabError(error);
  if (failure.isNetworkFailure) return failure.message;
  return labelledFieldErrors(failure, (message) => message)[0] ?? messages.accountCompletionFailed;
}

export function forgotPasswordErrorMessage(error: unknown): string {
  const failure = toConfabError(error);
  if (failure.isNetworkFailure) return failure.message;
  return failure.status === 404 ? messages.noAccountWithEmail : messages.sendResetEmailFailed;
}

export function resetPasswordErrorMessage(error: unknown): string {
  const failure = toConfabError(error);
  if (failure.isNetworkFailure) return failure.message;
  return failure.status === 400 ? messages.invalidOrExpiredResetToken : messages.resetPasswordFailed;
}

const agentFieldLabels: ReadonlyArray<readonly [field: string, label: string]> = [
  ['name', 'Name'],
  ['username', 'Username'],
  ['description', 'Description'],
  ['site_wide_available', 'Availability'],
];

/**
 * What went wrong with an agent call, for the docs/PRODUCT.md §8 'Failed to … agent: …' texts:
 * field errors as 'Username: …', else the server's message, else the error's own message.
 */
export function agentErrorDetail(error: unknown): string {
  const failure = toConfabError(error);
  const parts: string[] = [];
  for (const [field, label] of agentFieldLabels) {
    const message = failure.fieldErrors[field]?.message.trim() ?? '';
    if (message !== '') parts.push(`${label}: ${withoutFinalPeriod(message)}`);
  }
  if (parts.length > 0) return parts.join('. ');
  return failure.serverMessage ?? failure.message;
}

/** 'Failed to create agent: …' (docs/PRODUCT.md §8). */
export function createAgentErrorMessage(error: unknown): string {
  return messages.createAgentFailed(agentErrorDetail(error));
}

/** 'Failed to update agent: …' (docs/PRODUCT.md §8). */
export function updateAgentErrorMessage(error: unknown): string {
  return messages.updateAgentFailed(agentErrorDetail(error));
}

/** 'Failed to delete agent: …' (docs/PRODUCT.md §8). */
export function deleteAgentErrorMessage(error: unknown): string {
  return messages.deleteAgentFailed(agentErrorDetail(error));
}

/** 'Failed to create hosted agent: …' (docs/PRODUCT.md §8). */
export function createHostedAgentErrorMessage(error: unknown): string {
  return messages.createHostedAgentFailed(agentErrorDetail(error));
}

/** 'Failed to delete hosted agent: …' (docs/PRODUCT.md §8). */
export function deleteHostedAgentErrorMessage(error: unknown): string {
  return messages.deleteHostedAgentFailed(agentErrorDetail(error));
}
