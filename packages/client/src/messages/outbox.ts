type Timer = ReturnType<typeof setTimeout>;

export interface OutboxEntry {
  chatId: string;
  content: string;
  /** The message it replies to (docs/CONTRACTS.md, Replies). */
  replyTo?: string | undefined;
}

/**
 * Sends that the server has not confirmed yet, by client_id, each with the timer that fails it.
 * An entry stays after it failed, so retry() can send the same content with the same client_id.
 */
export class Outbox {
  private readonly entries = new Map<string, OutboxEntry>();
  private readonly timers = new Map<string, Timer>();

  constructor(private readonly onTimeout: (clientId: string) => void) {}

  add(clientId: string, entry: OutboxEntry): void {
    this.entries.set(clientId, entry);
  }

  has(clientId: string): boolean {
    return this.entries.has(clientId);
  }

  get(clientId: string): OutboxEntry | undefined {
    return this.entries.get(clientId);
  }

  /** Starts (or restarts) the confirmation deadline. */
  wait(clientId: string, timeoutMs: number): void {
    this.stopWaiting(clientId);
    this.timers.set(clientId, setTimeout(() => this.onTimeout(clientId), timeoutMs));
  }

  stopWaiting(clientId: string): void {
    const timer = this.timers.get(clientId);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(clientId);
  }

  /** The ids still waiting for a confirmation. */
  waitingIds(): string[] {
    return [...this.timers.keys()];
  }

  confirm(clientId: string): void {
    this.stopWaiting(clientId);
    this.entries.delete(clientId);
  }

  clear(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.entries.clear();
  }
}
