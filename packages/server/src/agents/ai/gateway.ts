import type { ServiceContext } from '../../services/context';
import { formatTimestamp } from '../../store/ids';
import type { KeyOwner, ProviderName } from './errors';
import type { ProviderResult } from './provider';
import { runProvider } from './run';
import { addKeyHint, AiError, type AiAnswer, type AiGateway, type AiRequest } from './types';
import { recordAiUsage } from './usage';

export { runProvider } from './run';

/**
 * The AI gateway over the official SDKs: `openai` 6.x for Chat Completions (any
 * OpenAI-compatible base URL, local models included) and `@google/genai` 2.x for Gemini. Chosen
 * over the AI SDK because each vendor's own SDK speaks exactly its wire protocol (Chat
 * Completions, not the Responses API the AI SDK defaults to; Gemini's `alt=sse`), exposes the
 * HTTP status of every failure as a typed error (which the key-owner messages need), and adds
 * no abstraction layer we would have to map tool calls through; the tool loop is a few lines each.
 *
 * Key choice, per call: the invoking person's own key (OpenAI first when they set both), else
 * the server-wide key (OpenAI first), else none: `available()` is false and the agent answers in
 * its no-key mode. A keyless local server (Ollama) is used by setting its base URL and any
 * placeholder key. The person's key is decrypted only for the call and never logged.
 */
export class ProviderGateway implements AiGateway {
  constructor(private readonly context: ServiceContext) {}

  private async choose(invokerId: string): Promise<{ provider: ProviderName; keyOwner: KeyOwner; apiKey: string } | undefined> {
    const config = this.context.config;
    const user = await this.context.store.users.findById(invokerId);
    if (user !== undefined) {
      for (const provider of ['openai', 'gemini'] as const) {
        const stored = provider === 'openai' ? user.openai_api_key_encrypted : user.gemini_api_key_encrypted;
        if (stored === '') continue;
        try {
          const apiKey = this.context.providerKeyCipher.decrypt(stored, user.id);
          if (apiKey.trim() !== '') return { provider, keyOwner: 'user', apiKey };
        } catch {
          // Sealed under another secret: unusable, so the server's key (if any) answers instead.
          this.context.logger.warn({ user: user.id, provider }, 'stored provider key cannot be decrypted');
        }
      }
    }
    if (config.openaiApiKey !== undefined) return { provider: 'openai', keyOwner: 'server', apiKey: config.openaiApiKey };
    if (config.geminiApiKey !== undefined) return { provider: 'gemini', keyOwner: 'server', apiKey: config.geminiApiKey };
    return undefined;
  }

  async available(invokerId: string): Promise<boolean> {
    return (await this.choose(invokerId)) !== undefined;
  }

  async complete(request: AiRequest): Promise<AiAnswer> {
    const choice = await this.choose(request.invokerId);
    if (choice === undefined) throw new AiError('auth', addKeyHint, 'No OpenAI or Gemini key is set: add yours on My Profile.', 'user');
    const config = this.context.config;
    const model = choice.provider === 'openai' ? config.openaiModel : config.geminiModel;
    let result: ProviderResult;
    try {
      result = await runProvider(
        {
          ...choice,
          baseUrl: choice.provider === 'openai' ? config.openaiBaseUrl : config.geminiBaseUrl,
          model,
          timeoutMs: config.aiTimeoutMs,
          idleTimeoutMs: config.aiIdleTimeoutMs,
          onRetry: ({ attempt, status, waitMs }) => this.context.logger.warn({ provider: choice.provider, status, attempt, waitMs }, 'AI provider call retried'),
        },
        request,
      );
    } catch (error) {
      if (error instanceof AiError) {
        // The owner message names whose key and the status only: safe to log (never the provider's body).
        this.context.logger.warn({ provider: choice.provider, keyOwner: choice.keyOwner, kind: error.kind, status: error.status, detail: error.ownerMessage }, 'AI provider call failed');
      }
      throw error;
    }
    const tokens = this.context.metrics.aiTokens;
    tokens.inc({ provider: choice.provider, direction: 'input' }, Math.max(0, Math.round(result.usage.inputTokens)) || 0);
    tokens.inc({ provider: choice.provider, direction: 'output' }, Math.max(0, Math.round(result.usage.outputTokens)) || 0);
    try {
      await recordAiUsage(this.context.store.database, {
        userId: request.invokerId,
        provider: choice.provider,
        model,
        keyOwner: choice.keyOwner,
        inputTokens: result.usage.inputTokens,
        outputTokens: result.usage.outputTokens,
        created: formatTimestamp(config.now()),
      });
    } catch (error) {
      this.context.logger.error({ error: String(error) }, 'AI usage not recorded');
    }
    return { text: result.text, provider: choice.provider, keyOwner: choice.keyOwner, usage: result.usage };
  }
}
