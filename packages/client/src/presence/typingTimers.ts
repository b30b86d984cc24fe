/**
 * One expiry timer per typist and chat: restarted by each typing frame, it clears the typist
 * when no new frame came in time (docs/CONTRACTS.md, Typing and presence).
 */
export class TypingTimers {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly expiryMs: number,
    private readonly onExpired: (chatId: string, userId: string) => void,
  ) {}

  restart(chatId: string, userId: string): void {
    this.stop(chatId, userId);
    const timer = setTimeout(() => {
      this.timers.delete(key(chatId, userId));
      this.onExpired(chatId, userId);
    }, this.expiryMs);
    this.timers.set(key(chatId, userId), timer);
  }

  stop(chatId: string, userId: string): void {
    const timer = this.timers.get(key(chatId, userId));
    if (timer === undefined) return;
    clearTimeout(timer);
    this.timers.delete(key(chatId, userId));
  }

  stopChat(chatId: string): void {
    const prefix = `${chatId} `;
    for (const [timerKey, timer] of this.timers) {
      if (!timerKey.startsWith(prefix)) continue;
      clearTimeout(timer);
      this.timers.delete(timerKey);
    }
  }
}

function key(chatId: string, userId: string): string {
  return `${chatId} ${userId}`;
}
