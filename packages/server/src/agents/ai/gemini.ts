import { GoogleGenAI, type Content, type FunctionDeclaration } from '@google/genai';
import type { AiRequest } from './types';
import { runTool, type ProviderCall, type ProviderResult } from './provider';

/**
 * One conversation over Gemini's `streamGenerateContent?alt=sse` (v1beta). The system prompt goes
 * in `systemInstruction`, assistant turns as role `model`; function calls arrive whole in a part
 * and their results go back as `functionResponse` parts, until the model answers in words or the
 * rounds run out. `usageMetadata` holds running totals, so the last one of a round counts.
 */
export async function completeWithGemini(call: ProviderCall, request: AiRequest): Promise<ProviderResult> {
  const client = new GoogleGenAI({ apiKey: call.apiKey, httpOptions: { ...(call.baseUrl === undefined ? {} : { baseUrl: call.baseUrl }), timeout: call.timeoutMs } });
  const contents: Content[] = request.messages
    .filter((turn) => turn.role !== 'system')
    .map((turn) => ({ role: turn.role === 'assistant' ? 'model' : 'user', parts: [{ text: turn.content }] }));
  const declarations: FunctionDeclaration[] = (request.tools ?? []).map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters }));
  const extraSystem = request.messages.filter((turn) => turn.role === 'system').map((turn) => turn.content);
  const system = [request.system, ...extraSystem].filter((part) => part.trim() !== '').join('\n\n');
  const usage = { inputTokens: 0, outputTokens: 0 };
  const maxRounds = request.maxToolRounds ?? 4;
  let text = '';
  for (let round = 0; ; round += 1) {
    const offerTools = declarations.length > 0 && round < maxRounds;
    const stream = await client.models.generateContentStream({
      model: call.model,
      contents,
      config: {
        ...(system === '' ? {} : { systemInstruction: system }),
        ...(offerTools ? { tools: [{ functionDeclarations: declarations }] } : {}),
        abortSignal: call.signal,
      },
    });
    call.alive();
    const calls: { name: string; args: Record<string, unknown> }[] = [];
    let roundText = '';
    let roundUsage = { inputTokens: 0, outputTokens: 0 };
    for await (const chunk of stream) {
      call.alive();
      if (chunk.usageMetadata) {
        roundUsage = {
          inputTokens: chunk.usageMetadata.promptTokenCount ?? 0,
          outputTokens: (chunk.usageMetadata.candidatesTokenCount ?? 0) + (chunk.usageMetadata.thoughtsTokenCount ?? 0),
        };
      }
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        if (typeof part.text === 'string' && part.text !== '' && part.thought !== true) {
          roundText += part.text;
          request.onText?.(part.text);
        }
        if (part.functionCall?.name) calls.push({ name: part.functionCall.name, args: part.functionCall.args ?? {} });
      }
    }
    call.signal.throwIfAborted();
    usage.inputTokens += roundUsage.inputTokens;
    usage.outputTokens += roundUsage.outputTokens;
    text += roundText;
    if (calls.length === 0 || !offerTools) return { text, usage };
    contents.push({
      role: 'model',
      parts: [...(roundText === '' ? [] : [{ text: roundText }]), ...calls.map((functionCall) => ({ functionCall }))],
    });
    const responses = [];
    for (const functionCall of calls) {
      const output = await runTool(request, functionCall.name, functionCall.args);
      responses.push({ functionResponse: { name: functionCall.name, response: { output } } });
    }
    contents.push({ role: 'user', parts: responses });
  }
}
