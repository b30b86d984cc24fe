import type { ServerFrame } from '@confab/client/protocol';

/**
 * A WebSocket for jsdom tests, given to the client as `realtime.WebSocket`: it opens at once,
 * accepts any token, records what the client sends, and delivers the frames a test pushes as if
 * the server sent them, so live changes go through the client's own handlers.
 */
export class FakeSocket {
  /** The socket the client opened last. */
  static current: FakeSocket | null = null;

  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  /** Every frame the client sent, parsed. */
  readonly sent: Array<Record<string, unknown>> = [];

  constructor(readonly url: string) {
    FakeSocket.current = this;
    queueMicrotask(() => this.onopen?.({}));
  }

  send(data: string): void {
    const frame = JSON.parse(data) as Record<string, unknown>;
    this.sent.push(frame);
    if (frame['type'] === 'authenticate_with_token') queueMicrotask(() => this.push({ type: 'authSuccess' }));
  }

  close(): void {
    if (FakeSocket.current === this) FakeSocket.current = null;
  }

  /** Delivers `frame` to the client, as the server would. */
  push(frame: ServerFrame): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}
