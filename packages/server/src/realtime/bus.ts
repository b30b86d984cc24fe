/**
 * The publish/subscribe bus the realtime layer fans out through. One instance uses the in-process
 * bus; several instances behind a load balancer share Redis (see `redisBus.ts`). Payloads are
 * plain JSON values: the Redis bus sends them as JSON text, so nothing else survives the trip.
 */
export type BusHandler = (payload: unknown) => void;

export interface Bus {
  publish(channel: string, payload: unknown): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(channel: string, handler: BusHandler): () => void;
  /** Resolves once every subscription made so far receives messages (Redis subscribes asynchronously). */
  ready(): Promise<void>;
  /**
   * `listener` runs each time the bus is back after an outage (Redis reconnected, subscriptions
   * made again): whatever was published meanwhile may have been missed. Returns the unsubscribe function.
   */
  onResume(listener: () => void): () => void;
  close(): Promise<void>;
}

/** Handlers per channel, shared by both buses; a throwing handler never stops the others. */
export class HandlerRegistry {
  private readonly handlers = new Map<string, Set<BusHandler>>();

  /** True when this was the channel's first handler. */
  add(channel: string, handler: BusHandler): boolean {
    let set = this.handlers.get(channel);
    const first = set === undefined;
    if (set === undefined) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
    return first;
  }

  /** True when the channel has no handler left. */
  remove(channel: string, handler: BusHandler): boolean {
    const set = this.handlers.get(channel);
    if (set === undefined || !set.delete(handler)) return false;
    if (set.size > 0) return false;
    this.handlers.delete(channel);
    return true;
  }

  dispatch(channel: string, payload: unknown, onError: (error: unknown) => void): void {
    const set = this.handlers.get(channel);
    if (set === undefined) return;
    for (const handler of [...set]) {
      try {
        handler(payload);
      } catch (error) {
        onError(error);
      }
    }
  }

  clear(): void {
    this.handlers.clear();
  }

  /** Every channel that has a handler. */
  channels(): string[] {
    return [...this.handlers.keys()];
  }
}

/** The embedded default: delivery within this process, synchronously and in publish order. */
export class InProcessBus implements Bus {
  private readonly registry = new HandlerRegistry();

  constructor(private readonly onError: (error: unknown) => void = () => undefined) {}

  async publish(channel: string, payload: unknown): Promise<void> {
    this.registry.dispatch(channel, payload, this.onError);
  }

  subscribe(channel: string, handler: BusHandler): () => void {
    this.registry.add(channel, handler);
    return () => void this.registry.remove(channel, handler);
  }

  async ready(): Promise<void> {}

  /** Never down, so never resumes. */
  onResume(): () => void {
    return () => undefined;
  }

  async close(): Promise<void> {
    this.registry.clear();
  }
}
