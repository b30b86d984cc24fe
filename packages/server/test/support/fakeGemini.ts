import type { ServerResponse } from 'node:http';
import { sleep, sseEvent, startFakeProvider, type FakeProviderServer, type RecordedRequest } from './fakeProvider';

/**
 * A local Gemini API (v1beta `models/{model}:streamGenerateContent?alt=sse`) speaking the real
 * wire format (docs/PROTOCOLS.md, AI providers): one GenerateContentResponse per SSE
 * event, no `[DONE]`, running `usageMetadata` totals on every chunk, `finishReason` on the last,
 * a `functionCall` whole in one part; errors as `{error:{code,message,status,details}}` (a wrong
 * key is 400 API_KEY_INVALID; a 429 carries `RetryInfo.retryDelay`). `broken` streams its chunks,
 * then stalls, sends a chunk that is not JSON, or destroys the socket.
 */
export type GeminiScript =
  | { kind: 'text'; chunks: string[]; usage?: { prompt: number; candidates: number } }
  | { kind: 'function_call'; name: string; args: Record<string, unknown>; usage?: { prompt: number; candidates: number } }
  | { kind: 'error'; status: number }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'broken'; chunks: string[]; then: 'stall' | 'malformed' | 'cut' };

export type FakeGemini = FakeProviderServer<GeminiScript>;

const errorBodies: Record<number, unknown> = {
  400: {
    code: 400,
    message: 'API key not valid. Please pass a valid API key.',
    status: 'INVALID_ARGUMENT',
    details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } }],
  },
  429: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' }] },
  500: { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' },
};

async function answer(script: GeminiScript, request: RecordedRequest, response: ServerResponse): Promise<void> {
  const match = /^\/v1beta\/models\/([^:/?]+):(streamGenerateContent|generateContent)/.exec(request.path);
  if (request.method !== 'POST' || match === null) {
    response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } }));
    return;
  }
  if (script.kind === 'error') {
    response.writeHead(script.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: errorBodies[script.status] ?? errorBodies[500] }));
    return;
  }
  if (script.kind === 'slow') {
    await sleep(script.delayMs);
    if (!response.destroyed) response.writeHead(500).end();
    return;
  }
  const modelVersion = match[1] ?? 'gemini';
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const usage = (script.kind === 'broken' ? undefined : script.usage) ?? { prompt: 12, candidates: 6 };
  const event = (parts: unknown[], last: boolean, candidates: number) =>
    JSON.stringify({
      candidates: [{ content: { role: 'model', parts }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }],
      usageMetadata: { promptTokenCount: usage.prompt, candidatesTokenCount: candidates, totalTokenCount: usage.prompt + candidates },
      modelVersion,
      responseId: 'fake-response-1',
    });
  if (script.kind === 'broken') {
    for (const text of script.chunks) {
      sseEvent(response, event([{ text }], false, 1));
      await sleep(5);
    }
    if (script.then === 'cut') response.socket?.destroy();
    else if (script.then === 'malformed') response.end('data: {"candidates":[{"content":{"parts":[{"text":"<html>upstream</html>\n\n');
    return;
  }
  if (script.kind === 'text') {
    script.chunks.forEach((text, index) => {
      const last = index === script.chunks.length - 1;
      sseEvent(response, event([{ text }], last, last ? usage.candidates : Math.floor((usage.candidates * (index + 1)) / script.chunks.length)));
    });
  } else {
    sseEvent(response, event([{ functionCall: { name: script.name, args: script.args } }], true, usage.candidates));
  }
  response.end();
}

export async function startFakeGemini(): Promise<FakeGemini> {
  return startFakeProvider<GeminiScript>({ kind: 'text', chunks: ['Hello ', 'from ', 'Gemini.'] }, answer);
}
