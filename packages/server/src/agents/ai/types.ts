/**
 * The AI gateway hosted agents call (docs/CONTRACTS.md, Hosted agents): one interface over OpenAI
 * Chat Completions and Gemini, choosing whose key pays. Implemented in this folder (providers and
 * key choice); hosted agents (../hosted/) only see this interface.
 */

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A function the model may call (JSON Schema parameters). */
export interface AiTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** Runs the call; its string result goes back to the model. */
  run(args: Record<string, unknown>): Promise<string>;
}

export interface AiRequest {
  /** The person whose message invoked the agent: their own key pays first. */
  invokerId: string;
  /** The agent's instructions. */
  system: string;
  messages: ChatTurn[];
  tools?: AiTool[];
  /** Each piece of answer text as it streams. */
  onText?: (delta: string) => void;
  /** Called while a tool runs (for the status line), e.g. 'running sql…'. */
  onToolStatus?: (text: string) => void;
  /** At most this many model rounds with tool calls. Default 4. */
  maxToolRounds?: number;
}

export interface AiAnswer {
  text: string;
  provider: 'openai' | 'gemini';
  /** Whose key paid: the invoker's own, or the server's. */
  keyOwner: 'user' | 'server';
  usage: { inputTokens: number; outputTokens: number };
}

/**
 * A provider failure, worded for the chat: `message` is safe to show anyone (no key, no
 * provider body); `ownerMessage` may say which key failed, for the key's owner only.
 */
export class AiError extends Error {
  constructor(
    readonly kind: 'auth' | 'rate_limit' | 'server' | 'timeout' | 'bad_request',
    message: string,
    readonly ownerMessage: string,
    /** Whose key failed: the invoker's own ('user', so the invoker is its owner) or the server's. */
    readonly keyOwner: 'user' | 'server' = 'server',
    /** The provider's HTTP status, when it answered with one (for the log). */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AiError';
  }
}

export interface AiGateway {
  /** Whether some key (the invoker's or the server's) can pay; false means the agent's no-key mode. */
  available(invokerId: string): Promise<boolean>;
  /** Runs the conversation (with tool rounds) and answers the final text; throws AiError. */
  complete(request: AiRequest): Promise<AiAnswer>;
}

/** Where the no-key replies send people to add a key. */
export const addKeyHint = 'Add your OpenAI or Gemini key on [My Profile](/profile) to let me answer in words.';
