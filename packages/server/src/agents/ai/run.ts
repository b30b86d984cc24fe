import { setTimeout as sleep } from 'node:timers/promises';
import { rateLimitedFor, toAiError, type KeyOwner, type ProviderName } from './errors';
import { completeWithGemini } from './gemini';
import { completeWithOpenAI } from './openai';
import type { ProviderCall, ProviderResult } from './provider';
import { retryPlan } from './retry';
import { AiError, type AiRequest } from './types';

export interface ProviderRun {
  provider: ProviderName;
  keyOwner: KeyOwner;
  apiKey: string;
  baseUrl: string | undefined;
  model: string;
  /** The whole answer, tool rounds included. */
  timeoutMs: number;
  /** Silence allowed before the answer starts and between two chunks; default `timeoutMs`. */
  idleTimeoutMs?: number;
  /** Told before each retry (for the log: status and wait, never a body). */
  onRetry?: (retry: { attempt: number; status: number | undefined; waitMs: number }) => void;
}

/**
 * One provider call with its time limits and bounded retries (retry.ts); every failure becomes an
 * AiError naming whose key failed. Retries happen only while nothing was shown or done, so a
 * person never sees an answer twice; a wait past the cap ends at once with when to ask again.
 */
export async function runProvider(input: ProviderRun, request: AiRequest): Promise<ProviderResult> {
  let progressed = false;
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await attemptOnce(input, request, () => (progressed = true));
    if (outcome.ok) return outcome.result;
    const failure = toAiError(outcome.error, { ...input, timedOut: outcome.timedOut, idleTimeoutMs: idleOf(input), midStream: progressed });
    const plan = retryPlan(outcome.error, { attempt, progressed, timedOut: outcome.timedOut !== undefined });
    if (!plan.retry) {
      if (plan.tooLongMs === undefined) throw failure;
      const waitSeconds = Math.ceil(plan.tooLongMs / 1000);
      throw new AiError(failure.kind, rateLimitedFor(plan.tooLongMs), `${failure.ownerMessage} It asked to wait ${waitSeconds} s.`, failure.keyOwner, failure.status);
    }
    input.onRetry?.({ attempt, status: failure.status, waitMs: plan.waitMs });
    await sleep(plan.waitMs);
  }
}

function idleOf(input: ProviderRun): number {
  return input.idleTimeoutMs ?? input.timeoutMs;
}

type Attempt = { ok: true; result: ProviderResult } | { ok: false; error: unknown; timedOut: 'total' | 'idle' | undefined };

/**
 * One try, aborted when the whole of it runs past `timeoutMs` or the provider goes quiet for the
 * idle time (the watch pauses while a tool runs: that silence is ours). `onProgress` is told of
 * the first text shown or tool run.
 */
async function attemptOnce(input: ProviderRun, request: AiRequest, onProgress: () => void): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut: 'total' | 'idle' | undefined;
  const stop = (why: 'total' | 'idle') => {
    timedOut ??= why;
    controller.abort();
  };
  const total = setTimeout(() => stop('total'), input.timeoutMs);
  let idle: NodeJS.Timeout | undefined;
  const alive = () => {
    clearTimeout(idle);
    idle = setTimeout(() => stop('idle'), idleOf(input));
  };
  const call: ProviderCall = { apiKey: input.apiKey, baseUrl: input.baseUrl, model: input.model, timeoutMs: input.timeoutMs, signal: controller.signal, alive };
  const watched: AiRequest = {
    ...request,
    onText: (delta) => {
      onProgress();
      request.onText?.(delta);
    },
    ...(request.tools === undefined
      ? {}
      : {
          tools: request.tools.map((tool) => ({
            ...tool,
            run: async (args: Record<string, unknown>) => {
              onProgress();
              clearTimeout(idle);
              try {
                return await tool.run(args);
              } finally {
                alive();
              }
            },
          })),
        }),
  };
  alive();
  try {
    const result = input.provider === 'openai' ? await completeWithOpenAI(call, watched) : await completeWithGemini(call, watched);
    return { ok: true, result };
  } catch (error) {
    return { ok: false, error, timedOut };
  } finally {
    clearTimeout(total);
    clearTimeout(idle);
  }
}
