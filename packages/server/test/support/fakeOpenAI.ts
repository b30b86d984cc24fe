import type { ServerResponse } from 'node:http';
import { sleep, sseEvent, startFakeProvider, type FakeProviderServer, type RecordedRequest } from './fakeProvider';

/**
 * A local OpenAI Chat Completions server (`POST /v1/chat/completions`) speaking the real wire
 * format (docs/PROTOCOLS.md, AI providers): `chat.completion.chunk` SSE events, tool-call
 * deltas keyed by `index` (the first with id and name, then argument fragments), the
 * `include_usage` chunk with `choices: []`, `data: [DONE]`; error bodies in the `{error:{…}}` shape.
 * An error says `x-should-retry: false` unless the script gives its own headers (a 429's
 * `retry-after`); `broken` streams its chunks, then stalls, sends a chunk that is not JSON, or
 * destroys the socket.
 */
export type OpenAIScript =
  | { kind: 'text'; chunks: string[]; usage?: { prompt: number; completion: number } }
  | { kind: 'tool_call'; name: string; fragments: string[]; usage?: { prompt: number; completion: number } }
  | { kind: 'error'; status: number; headers?: Record<string, string> }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'broken'; chunks: string[]; then: 'stall' | 'malformed' | 'cut' };

export type FakeOpenAI = FakeProviderServer<OpenAIScript> & { baseUrl: string };

const errorBodies: Record<number, { message: string; type: string; code: string | null }> = {
  // A recorded 401 quotes the start of the key: the server must never pass this body on.
  401: { message: 'Incorrect API key provided: sk-user***. You can find your API key at https://platform.openai.com/account/api-keys.', type: 'invalid_request_error', code: 'invalid_api_key' },
  429: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
  500: { message: 'The server had an error while processing your request.', type: 'server_error', code: null },
};

function chunk(model: string, choices: unknown[], usage: unknown = null): string {
  return JSON.stringify({ id: 'chatcmpl-fake1', object: 'chat.completion.chunk', created: 1770933892, model, system_fingerprint: 'fp_fake', choices, usage });
}

async function answer(script: OpenAIScript, request: RecordedRequest, response: ServerResponse): Promise<void> {
  if (request.method !== 'POST' || !request.path.startsWith('/v1/chat/completions')) {
    response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Not found', type: 'invalid_request_error', param: null, code: null } }));
    return;
  }
  if (script.kind === 'error') {
    const body = errorBodies[script.status] ?? errorBodies[500];
    response.writeHead(script.status, { 'content-type': 'application/json', ...(script.headers ?? { 'x-should-retry': 'false' }) }).end(JSON.stringify({ error: { ...body, param: null } }));
    return;
  }
  if (script.kind === 'slow') {
    await sleep(script.delayMs);
    if (!response.destroyed) response.writeHead(500).end();
    return;
  }
  const model = String(request.body['model'] ?? 'unknown');
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const choice = (delta: unknown, finish: string | null = null) => [{ index: 0, delta, logprobs: null, finish_reason: finish }];
  sseEvent(response, chunk(model, choice({ role: 'assistant', content: '', refusal: null })));
  if (script.kind === 'broken') {
    for (const text of script.chunks) {
      sseEvent(response, chunk(model, choice({ content: text })));
      await sleep(5);
    }
    if (script.then === 'cut') response.socket?.destroy();
    // Part of an HTML error page where a JSON chunk belongs, as a broken proxy sends it.
    else if (script.then === 'malformed') response.end('data: {"id":"chatcmpl-fake1","choices":[{"delta":{"content":"<html>upstream sk-LEAKED-body</html>\n\n');
    // 'stall': the connection stays open and silent until the client gives up.
    return;
  }
  if (script.kind === 'text') {
    for (const text of script.chunks) {
      sseEvent(response, chunk(model, choice({ content: text })));
      await sleep(5);
    }
    sseEvent(response, chunk(model, choice({}, 'stop')));
  } else {
    sseEvent(response, chunk(model, choice({ tool_calls: [{ index: 0, id: 'call_fake1', type: 'function', function: { name: script.name, arguments: '' } }] })));
    for (const fragment of script.fragments) sseEvent(response, chunk(model, choice({ tool_calls: [{ index: 0, function: { arguments: fragment } }] })));
    sseEvent(response, chunk(model, choice({}, 'tool_calls')));
  }
  const usage = script.usage ?? { prompt: 10, completion: 5 };
  if ((request.body['stream_options'] as { include_usage?: boolean } | undefined)?.include_usage === true) {
    sseEvent(response, chunk(model, [], { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion }));
  }
  sseEvent(response, '[DONE]');
  response.end();
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const server = await startFakeProvider<OpenAIScript>({ kind: 'text', chunks: ['Hello ', 'from ', 'OpenAI.'] }, answer);
  return Object.assign(server, { baseUrl: `${server.url}/v1` });
}
