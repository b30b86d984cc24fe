import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ApiError as GeminiApiError } from '@google/genai';
import { AiError } from './types';

export type ProviderName = 'openai' | 'gemini';
export type KeyOwner = 'user' | 'server';

const providerNames: Record<ProviderName, string> = { openai: 'OpenAI', gemini: 'Gemini' };

/** Texts anyone in the chat may read: no key, no provider body, no URL. */
export const aiErrorMessages = {
  auth: 'The AI provider refused the key, so I cannot answer right now.',
  rate_limit: 'The AI provider is limiting requests right now; please try again in a minute.',
  server: 'The AI provider is having trouble right now; please try again later.',
  timeout: 'The AI provider took too long to answer; please try again.',
  bad_request: 'The AI provider could not handle this request.',
} as const;

function statusOf(error: unknown): number | undefined {
  if (error instanceof APIError && typeof error.status === 'number') return error.status;
  if (error instanceof GeminiApiError && typeof error.status === 'number') return error.status;
  return undefined;
}

/** Gemini answers a wrong key with 400 INVALID_ARGUMENT and reason API_KEY_INVALID, not 401. */
function isGeminiKeyError(error: unknown): boolean {
  return error instanceof GeminiApiError && /API_KEY_INVALID|API key not valid|API key expired/i.test(error.message);
}

/** The rate-limit text when the provider asked for a longer wait than we sit out: when to ask again. */
export function rateLimitedFor(waitMs: number): string {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const when = seconds < 90 ? `${seconds} seconds` : `${Math.round(seconds / 60)} minutes`;
  return `The AI provider is limiting requests right now; please try again in about ${when}.`;
}

export interface FailureContext {
  provider: ProviderName;
  keyOwner: KeyOwner;
  /** Which of our time limits ended the call, if one did. */
  timedOut: 'total' | 'idle' | undefined;
  timeoutMs: number;
  idleTimeoutMs: number;
  /** Part of the answer had already arrived (a cut or a broken stream, not a refusal). */
  midStream: boolean;
}

/**
 * A provider failure as an AiError: `message` safe for the chat; `ownerMessage` names the key
 * that failed ('Your OpenAI key…' / 'The server's Gemini key…') and the status, never the key
 * or the provider's body (OpenAI's 401 body quotes part of the key; a stream's broken chunk may
 * quote anything).
 */
export function toAiError(error: unknown, input: FailureContext): AiError {
  if (error instanceof AiError) return error;
  const provider = providerNames[input.provider];
  const key = input.keyOwner === 'user' ? `Your ${provider} key` : `The server's ${provider} key`;
  const whose = input.keyOwner === 'user' ? 'your key' : "the server's key";
  const status = statusOf(error);
  const make = (kind: keyof typeof aiErrorMessages, ownerMessage: string) => new AiError(kind, aiErrorMessages[kind], ownerMessage, input.keyOwner, status);
  if (input.timedOut === 'idle') {
    return make('timeout', `${provider} sent nothing for ${seconds(input.idleTimeoutMs)} s (with ${whose}).`);
  }
  if (input.timedOut === 'total' || error instanceof APIConnectionTimeoutError) {
    return make('timeout', `${provider} did not answer within ${seconds(input.timeoutMs)} s (with ${whose}).`);
  }
  if (status === 401 || status === 403 || isGeminiKeyError(error)) {
    const shown = status === 403 ? 403 : isGeminiKeyError(error) ? status ?? 400 : 401;
    const fix = input.keyOwner === 'user' ? ' Check or replace it on My Profile.' : ' A server admin should check CONFAB_' + input.provider.toUpperCase() + '_API_KEY.';
    return make('auth', `${key} was refused (${shown}).${fix}`);
  }
  if (status === 429) return make('rate_limit', `${key} hit ${provider}'s rate limit or quota (429).`);
  if (status !== undefined && status >= 500) return make('server', `${provider} failed with ${status} while using ${whose}.`);
  if (status !== undefined) return make('bad_request', `${provider} rejected the request (${status}) made with ${whose}.`);
  if (error instanceof SyntaxError) return make('server', `${provider} sent a stream that could not be read (with ${whose}).`);
  if (input.midStream && (error instanceof APIConnectionError || error instanceof TypeError || error instanceof APIUserAbortError)) {
    return make('server', `${provider}'s answer broke off mid-stream (with ${whose}).`);
  }
  if (error instanceof APIConnectionError || error instanceof TypeError) {
    return make('server', `${provider} could not be reached with ${whose} (network error).`);
  }
  return make('server', `${provider} failed while using ${whose}.`);
}

function seconds(milliseconds: number): number {
  return Math.round(milliseconds / 1000);
}
