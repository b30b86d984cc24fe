import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { AiRequest } from './types';
import { runTool, type ProviderCall, type ProviderResult } from './provider';

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * One conversation over OpenAI Chat Completions (`POST {base}/chat/completions`, streamed with
 * `include_usage`), any OpenAI-compatible server included (Ollama, vLLM, llama.cpp). Tool calls
 * arrive as deltas keyed by `index` (fragmented or whole); each round's calls run and go back
 * as `tool` turns until the model answers in words or the rounds run out.
 */
export async function completeWithOpenAI(call: ProviderCall, request: AiRequest): Promise<ProviderResult> {
  // Retries are ours (run.ts); the SDK's own log would print a broken chunk's raw text.
  const client = new OpenAI({ apiKey: call.apiKey, baseURL: call.baseUrl, maxRetries: 0, timeout: call.timeoutMs, logLevel: 'off' });
  const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: request.system }, ...request.messages.map((turn) => ({ role: turn.role, content: turn.content }))];
  const tools: ChatCompletionTool[] = (request.tools ?? []).map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
  const usage = { inputTokens: 0, outputTokens: 0 };
  const maxRounds = request.maxToolRounds ?? 4;
  let text = '';
  for (let round = 0; ; round += 1) {
    const offerTools = tools.length > 0 && round < maxRounds;
    const stream = await client.chat.completions.create(
      {
        model: call.model,
        stream: true,
        stream_options: { include_usage: true },
        messages,
        ...(offerTools ? { tools, tool_choice: 'auto' as const } : {}),
      },
      { signal: call.signal },
    );
    call.alive();
    const calls: PendingCall[] = [];
    let roundText = '';
    for await (const chunk of stream) {
      call.alive();
      if (chunk.usage) {
        usage.inputTokens += chunk.usage.prompt_tokens ?? 0;
        usage.outputTokens += chunk.usage.completion_tokens ?? 0;
      }
      const delta = chunk.choices[0]?.delta;
      if (delta === undefined) continue;
      if (typeof delta.content === 'string' && delta.content !== '') {
        roundText += delta.content;
        request.onText?.(delta.content);
      }
      for (const part of delta.tool_calls ?? []) {
        const pending = (calls[part.index] ??= { id: '', name: '', arguments: '' });
        if (part.id) pending.id = part.id;
        if (part.function?.name) pending.name = part.function.name;
        if (part.function?.arguments) pending.arguments += part.function.arguments;
      }
    }
    // The SDK ends a stream quietly when its signal aborts: our time limit ran out mid-answer.
    call.signal.throwIfAborted();
    text += roundText;
    const toolCalls = calls.filter((pending) => pending !== undefined && pending.name !== '');
    if (toolCalls.length === 0 || !offerTools) return { text, usage };
    messages.push({
      role: 'assistant',
      content: roundText === '' ? null : roundText,
      tool_calls: toolCalls.map((pending, index) => ({
        id: pending.id || `call_${round}_${index}`,
        type: 'function',
        function: { name: pending.name, arguments: pending.arguments },
      })),
    });
    for (const [index, pending] of toolCalls.entries()) {
      const output = await runTool(request, pending.name, parseArguments(pending.arguments));
      messages.push({ role: 'tool', tool_call_id: pending.id || `call_${round}_${index}`, content: output });
    }
  }
}

/** `arguments` is a JSON string the model wrote: maybe invalid, maybe not an object. */
function parseArguments(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
