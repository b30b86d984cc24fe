import type { AiRequest } from './types';

/** What one provider call needs: the chosen key, where to send it, and how long to wait. */
export interface ProviderCall {
  apiKey: string;
  /** OpenAI: the base URL with `/v1`; Gemini: the host only (the SDK adds `/v1beta`). Undefined: the vendor's. */
  baseUrl: string | undefined;
  model: string;
  timeoutMs: number;
  /** Aborted when the whole call runs past its time, or the provider went quiet too long. */
  signal: AbortSignal;
  /** Restarts the idle watch: call when the answer starts and on every chunk. */
  alive(): void;
}

export interface ProviderResult {
  text: string;
  usage: { inputTokens: number; outputTokens: number };
}

const toolOutputMaximum = 20_000;

/** Runs one tool call the model asked for; an unknown tool or a failure goes back to the model as text. */
export async function runTool(request: AiRequest, name: string, args: Record<string, unknown>): Promise<string> {
  const tool = request.tools?.find((candidate) => candidate.name === name);
  if (tool === undefined) return `Error: there is no tool named ${name.slice(0, 64)}.`;
  request.onToolStatus?.(`running ${tool.name}…`);
  try {
    const output = await tool.run(args);
    return output.length > toolOutputMaximum ? `${output.slice(0, toolOutputMaximum)}\n[cut at ${toolOutputMaximum} characters]` : output;
  } catch (error) {
    return `Error: ${error instanceof Error ? error.message : String(error)}`.slice(0, 1000);
  } finally {
    request.onToolStatus?.('');
  }
}
