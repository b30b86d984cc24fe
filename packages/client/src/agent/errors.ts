import type { ErrorCode } from '../protocol';

/**
 * Why an agent call failed: the server's error-frame codes (`not_invoked`, `invalid_message`,
 * `rate_limited`, `unknown_stream`, …) plus the SDK's own.
 */
export const agentErrorCodes = {
  /** The options of connectAgent are unusable (no key, not a `cfk_` key, not an http(s) URL, no WebSocket). */
  invalidOptions: 'invalid_options',
  /** The server refused the API key (authError or close 4001): wrong, rotated or deleted. */
  invalidApiKey: 'invalid_api_key',
  /** A reply was refused before it left (empty, too long, a stream already ended). */
  invalidReply: 'invalid_reply',
  /** The server did not confirm a reply in time. */
  timeout: 'timeout',
  /** The connection dropped while a streamed reply was open. */
  disconnected: 'disconnected',
  /** agent.close() was called while the reply waited. */
  closed: 'closed',
  /** A mention handler threw or rejected. */
  handlerFailed: 'handler_failed',
} as const;

export type AgentErrorCode = (typeof agentErrorCodes)[keyof typeof agentErrorCodes] | ErrorCode | (string & {});

/**
 * The one error type of `@confab/client/agent`. (The rest of the client uses ConfabError, which
 * carries the pocketbase SDK; this light entry does not.)
 *
 * @example
 * try { await reply.send('hi'); } catch (error) { if (error instanceof AgentError && error.code === 'not_invoked') … }
 */
export class AgentError extends Error {
  override name = 'AgentError';
  readonly code: AgentErrorCode;

  constructor(code: AgentErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}
