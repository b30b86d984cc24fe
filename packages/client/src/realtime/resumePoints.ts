/**
 * Per joined chat, the seq up to which messages have arrived with no gap: the after_seq of the
 * next join_chat. It only moves forward one seq at a time, so a gap (a replay capped at its
 * maximum) keeps the point before it and a later re-join asks for the gap again: duplicates are
 * possible (the store ignores them), losses are not.
 */
export class ResumePoints {
  /** undefined: joined live-only and nothing seen yet. */
  private readonly points = new Map<string, number | undefined>();

  track(chatId: string, afterSeq: number | undefined): void {
    this.points.set(chatId, afterSeq);
  }

  has(chatId: string): boolean {
    return this.points.has(chatId);
  }

  get(chatId: string): number | undefined {
    return this.points.get(chatId);
  }

  chatIds(): string[] {
    return [...this.points.keys()];
  }

  forget(chatId: string): void {
    this.points.delete(chatId);
  }

  clear(): void {
    this.points.clear();
  }

  noteMessage(chatId: string, seq: number): void {
    if (!this.points.has(chatId) || typeof seq !== 'number') return;
    const held = this.points.get(chatId);
    if (held === undefined || seq === held + 1) this.points.set(chatId, seq);
  }

  /** joined: without has_more everything up to last_seq has been delivered (or was not asked for). */
  noteJoined(chatId: string, lastSeq: number, hasMore: boolean): void {
    if (hasMore || !this.points.has(chatId) || typeof lastSeq !== 'number') return;
    this.points.set(chatId, Math.max(this.points.get(chatId) ?? 0, lastSeq));
  }

  advanceTo(chatId: string, seq: number): void {
    if (!this.points.has(chatId)) return;
    this.points.set(chatId, Math.max(this.points.get(chatId) ?? 0, seq));
  }
}
