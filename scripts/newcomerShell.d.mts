// Types of scripts/newcomerShell.mjs for its TypeScript test (apps/reference/e2e/quickstart.test.ts).

export interface StartedCommand {
  output(): string;
  /** Resolves with the output once it contains `text`; rejects on exit or timeout. */
  until(text: string, timeoutMs?: number): Promise<string>;
  /** Ctrl+C (SIGINT to its process group), SIGKILL after 5 s; resolves with the exit status. */
  stop(): Promise<number | string>;
}

export interface NewcomerShell {
  home: string;
  env: Record<string, string>;
  cwd(): string;
  run(command: string, options?: { timeoutMs?: number }): Promise<{ output: string; ms: number }>;
  start(command: string): StartedCommand;
  dispose(): Promise<void>;
}

export function newcomerShell(options?: { env?: Record<string, string> }): Promise<NewcomerShell>;
