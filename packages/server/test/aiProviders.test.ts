/**
 * The AI providers (docs/CONTRACTS.md, Hosted agents) against local servers that speak the real
 * wire protocols: OpenAI Chat Completions SSE with tool-call deltas and a usage chunk, Gemini's
 * streamGenerateContent SSE with function calls, and every error class (401/400 key, 429, 500, a
 * slow answer, a closed port) as an AiError whose texts never hold the key or the provider's body.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runProvider } from '../src/agents/ai/gateway';
import { maxAttempts } from '../src/agents/ai/retry';
import { AiError, type AiRequest, type AiTool } from '../src/agents/ai/types';
import { startFakeGemini, type FakeGemini } from './support/fakeGemini';
import { startFakeOpenAI, type FakeOpenAI } from './support/fakeOpenAI';

const userKey = 'sk-user-SECRET-0123456789abcdef';
const geminiKey = 'AIza-user-SECRET-0123456789';

let openai: FakeOpenAI;
let gemini: FakeGemini;

beforeAll(async () => {
  [openai, gemini] = await Promise.all([startFakeOpenAI(), startFakeGemini()]);
});
afterAll(async () => {
  await Promise.all([openai?.close(), gemini?.close()]);
});
beforeEach(() => {
  openai.reset();
  gemini.reset();
});

const viaOpenAI = (request: AiRequest, options: { keyOwner?: 'user' | 'server'; timeoutMs?: number; baseUrl?: string } = {}) =>
  runProvider({ provider: 'openai', keyOwner: options.keyOwner ?? 'user', apiKey: userKey, baseUrl: options.baseUrl ?? openai.baseUrl, model: 'gpt-test', timeoutMs: options.timeoutMs ?? 5000 }, request);
const viaGemini = (request: AiRequest, options: { keyOwner?: 'user' | 'server'; timeoutMs?: number } = {}) =>
  runProvider({ provider: 'gemini', keyOwner: options.keyOwner ?? 'user', apiKey: geminiKey, baseUrl: gemini.url, model: 'gemini-test', timeoutMs: options.timeoutMs ?? 5000 }, request);

function searchTool(calls: Record<string, unknown>[]): AiTool {
  return {
    name: 'search',
    description: 'Web search',
    parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    async run(args) {
      calls.push(args);
      return 'cats are mammals';
    },
  };
}

describe('OpenAI Chat Completions', () => {
  it('streams text deltas and counts the usage chunk; sends the key as a bearer, the model, the system prompt and the turns', async () => {
    openai.enqueue({ kind: 'text', chunks: ['Hel', 'lo ', 'there'], usage: { prompt: 16, completion: 3 } });
    const deltas: string[] = [];
    const result = await viaOpenAI({ invokerId: 'u', system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }], onText: (delta) => deltas.push(delta) });
    expect(deltas).toEqual(['Hel', 'lo ', 'there']);
    expect(result).toEqual({ text: 'Hello there', usage: { inputTokens: 16, outputTokens: 3 } });
    const [request] = openai.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers['authorization']).toBe(`Bearer ${userKey}`);
    expect(request?.body).toMatchObject({ model: 'gpt-test', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }] });
    expect(request?.body['tools']).toBeUndefined();
  });

  it('runs a tool call streamed as fragments by index, sends its result back and answers', async () => {
    openai.enqueue({ kind: 'tool_call', name: 'search', fragments: ['{"q":', '"cats"}'], usage: { prompt: 20, completion: 7 } }, { kind: 'text', chunks: ['Cats ', 'are mammals.'], usage: { prompt: 40, completion: 4 } });
    const calls: Record<string, unknown>[] = [];
    const statuses: string[] = [];
    const result = await viaOpenAI({ invokerId: 'u', system: 'S', messages: [{ role: 'user', content: 'Find cats' }], tools: [searchTool(calls)], onToolStatus: (text) => statuses.push(text) });
    expect(calls).toEqual([{ q: 'cats' }]);
    expect(statuses).toEqual(['running search…', '']);
    expect(result).toEqual({ text: 'Cats are mammals.', usage: { inputTokens: 60, outputTokens: 11 } });
    expect(openai.requests).toHaveLength(2);
    expect(openai.requests[0]?.body).toMatchObject({ tool_choice: 'auto', tools: [{ type: 'function', function: { name: 'search', description: 'Web search' } }] });
    const messages = openai.requests[1]?.body['messages'] as Record<string, unknown>[];
    expect(messages.slice(-2)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_fake1', type: 'function', function: { name: 'search', arguments: '{"q":"cats"}' } }] },
      { role: 'tool', tool_call_id: 'call_fake1', content: 'cats are mammals' },
    ]);
  });

  it('stops offering tools after maxToolRounds', async () => {
    openai.setDefault({ kind: 'tool_call', name: 'search', fragments: ['{"q":"again"}'] });
    openai.enqueue({ kind: 'tool_call', name: 'search', fragments: ['{"q":"x"}'] });
    const calls: Record<string, unknown>[] = [];
    await viaOpenAI({ invokerId: 'u', system: 'S', messages: [{ role: 'user', content: 'loop' }], tools: [searchTool(calls)], maxToolRounds: 1 });
    expect(calls).toEqual([{ q: 'x' }]);
    expect(openai.requests).toHaveLength(2);
    expect(openai.requests[1]?.body['tools']).toBeUndefined();
  });

  it.each([
    [401, 'auth', /^Your OpenAI key was refused \(401\)/],
    [429, 'rate_limit', /^Your OpenAI key hit OpenAI's rate limit or quota \(429\)/],
    [500, 'server', /^OpenAI failed with 500 while using your key/],
  ] as const)('turns a %i into an AiError %s naming the key, without the key or the body', async (status, kind, owner) => {
    openai.enqueue({ kind: 'error', status });
    const error = await viaOpenAI({ invokerId: 'u', system: 'S', messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AiError);
    const aiError = error as AiError;
    expect(aiError.kind).toBe(kind);
    expect(aiError.ownerMessage).toMatch(owner);
    expect(aiError.keyOwner).toBe('user');
    for (const text of [aiError.message, aiError.ownerMessage]) {
      expect(text).not.toContain('sk-');
      expect(text).not.toContain('SECRET');
      expect(text).not.toContain('Incorrect API key');
    }
  });

  it("names the server's key when it failed", async () => {
    openai.enqueue({ kind: 'error', status: 401 });
    const error = (await viaOpenAI({ invokerId: 'u', system: 'S', messages: [] }, { keyOwner: 'server' }).catch((caught: unknown) => caught)) as AiError;
    expect(error.ownerMessage).toMatch(/^The server's OpenAI key was refused \(401\)/);
    expect(error.keyOwner).toBe('server');
  });

  it('times out a slow answer and reports an unreachable server', async () => {
    openai.enqueue({ kind: 'slow', delayMs: 2000 });
    const slow = (await viaOpenAI({ invokerId: 'u', system: 'S', messages: [] }, { timeoutMs: 300 }).catch((caught: unknown) => caught)) as AiError;
    expect(slow).toBeInstanceOf(AiError);
    expect(slow.kind).toBe('timeout');
    expect(slow.ownerMessage).toMatch(/OpenAI did not answer within/);
    const closed = (await viaOpenAI({ invokerId: 'u', system: 'S', messages: [] }, { baseUrl: 'http://127.0.0.1:9/v1' }).catch((caught: unknown) => caught)) as AiError;
    expect(closed).toBeInstanceOf(AiError);
    expect(closed.kind).toBe('server');
    expect(closed.ownerMessage).toMatch(/could not be reached/);
  });
});

describe('Gemini streamGenerateContent', () => {
  it('streams text with the key header, the model in the path, alt=sse and the system instruction; usage from the running totals', async () => {
    gemini.enqueue({ kind: 'text', chunks: ['Hi ', 'from ', 'Gemini'], usage: { prompt: 29, candidates: 15 } });
    const deltas: string[] = [];
    const result = await viaGemini({
      invokerId: 'u',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hello' }, { role: 'assistant', content: 'Yes?' }, { role: 'user', content: 'Tell me' }],
      onText: (delta) => deltas.push(delta),
    });
    expect(deltas).toEqual(['Hi ', 'from ', 'Gemini']);
    expect(result).toEqual({ text: 'Hi from Gemini', usage: { inputTokens: 29, outputTokens: 15 } });
    const [request] = gemini.requests;
    expect(request?.path).toBe('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
    expect(request?.headers['x-goog-api-key']).toBe(geminiKey);
    expect(JSON.stringify(request?.body['systemInstruction'])).toContain('Be brief.');
    expect(request?.body['contents']).toEqual([
      { role: 'user', parts: [{ text: 'Hello' }] },
      { role: 'model', parts: [{ text: 'Yes?' }] },
      { role: 'user', parts: [{ text: 'Tell me' }] },
    ]);
  });

  it('runs a function call and sends the functionResponse back', async () => {
    gemini.enqueue({ kind: 'function_call', name: 'search', args: { q: 'cats' }, usage: { prompt: 10, candidates: 2 } }, { kind: 'text', chunks: ['Mammals.'], usage: { prompt: 30, candidates: 3 } });
    const calls: Record<string, unknown>[] = [];
    const result = await viaGemini({ invokerId: 'u', system: 'S', messages: [{ role: 'user', content: 'Find cats' }], tools: [searchTool(calls)] });
    expect(calls).toEqual([{ q: 'cats' }]);
    expect(result).toEqual({ text: 'Mammals.', usage: { inputTokens: 40, outputTokens: 5 } });
    const first = gemini.requests[0]?.body;
    expect(JSON.stringify(first?.['tools'])).toContain('"name":"search"');
    const contents = gemini.requests[1]?.body['contents'] as unknown[];
    expect(contents.slice(-2)).toEqual([
      { role: 'model', parts: [{ functionCall: { name: 'search', args: { q: 'cats' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'search', response: { output: 'cats are mammals' } } }] },
    ]);
  });

  it.each([
    [400, 'auth', /^Your Gemini key was refused \(400\)/, 1],
    // Its RetryInfo asks for 34.4 s, past what is sat out: told at once.
    [429, 'rate_limit', /^Your Gemini key hit Gemini's rate limit or quota \(429\)\. It asked to wait 35 s\./, 1],
    // Tried again, up to maxAttempts (docs/OPERATIONS.md, Fault matrix).
    [500, 'server', /^Gemini failed with 500 while using your key/, maxAttempts],
  ] as const)('turns a %i into an AiError %s without the key or the body', async (status, kind, owner, attempts) => {
    gemini.enqueue(...Array.from({ length: maxAttempts }, () => ({ kind: 'error', status }) as const));
    const error = (await viaGemini({ invokerId: 'u', system: 'S', messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught)) as AiError;
    expect(error).toBeInstanceOf(AiError);
    expect(error.kind).toBe(kind);
    expect(error.ownerMessage).toMatch(owner);
    expect(gemini.requests).toHaveLength(attempts);
    for (const text of [error.message, error.ownerMessage]) {
      expect(text).not.toContain('SECRET');
      expect(text).not.toContain('API key not valid');
    }
  });

  it('times out a slow answer', async () => {
    gemini.enqueue({ kind: 'slow', delayMs: 2000 });
    const error = (await viaGemini({ invokerId: 'u', system: 'S', messages: [{ role: 'user', content: 'x' }] }, { timeoutMs: 300, keyOwner: 'server' }).catch((caught: unknown) => caught)) as AiError;
    expect(error).toBeInstanceOf(AiError);
    expect(error.kind).toBe('timeout');
    expect(error.ownerMessage).toMatch(/Gemini did not answer within .* \(with the server's key\)/);
  });
});
