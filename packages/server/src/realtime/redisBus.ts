import type { Redis } from 'ioredis';
import { openRedis } from '../redis';
import { HandlerRegistry, type Bus, type BusHandler } from './bus';

/**
 * Fan-out across server instances through Redis pub/sub (REDIS_URL). A subscriber connection
 * can only subscribe, so publishing uses a second one. Redis delivers a message to every
 * subscriber, this instance included, so local sockets are served through the same path.
 *
 * While Redis is unreachable (docs/OPERATIONS.md, Fault matrix): a publish fails at once and is
 * delivered to this instance's own handlers instead, so its sockets keep getting what it stores;
 * other instances miss it, and once Redis is back every subscription is made again and the
 * `onResume` listeners are told, so rooms read what they missed from the database.
 */
export class RedisBus implements Bus {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly registry = new HandlerRegistry();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly resumeListeners = new Set<() => void>();
  /** True from a failed publish until Redis takes one again: one log line per outage, not one per message. */
  private publishFailing = false;
  private connectedOnce = false;

  constructor(
    redisUrl: string,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.publisher = openRedis(redisUrl, onError);
    // Subscriptions are made again by `resubscribe` below, including those refused during an outage.
    this.subscriber = openRedis(redisUrl, onError, { autoResubscribe: false });
    this.subscriber.on('ready', () => this.resubscribe());
    this.subscriber.on('message', (channel: string, message: string) => {
      let payload: unknown;
      try {
        payload = JSON.parse(message);
      } catch (error) {
        this.onError(error);
        return;
      }
      this.registry.dispatch(channel, payload, this.onError);
    });
  }

  async publish(channel: string, payload: unknown): Promise<void> {
    const text = JSON.stringify(payload);
    try {
      await this.publisher.publish(channel, text);
      this.publishFailing = false;
    } catch (error) {
      if (!this.publishFailing) this.onError(new Error(`Redis publish failed, serving this instance's sockets only: ${String(error)}`));
      this.publishFailing = true;
      // Parsed again, as a payload from Redis would be: handlers never share the caller's object.
      this.registry.dispatch(channel, JSON.parse(text), this.onError);
    }
  }

  private track(operation: Promise<unknown>): void {
    const tracked = operation.catch(this.onError).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  subscribe(channel: string, handler: BusHandler): () => void {
    if (this.registry.add(channel, handler)) this.track(this.subscriber.subscribe(channel));
    return () => {
      if (this.registry.remove(channel, handler)) this.track(this.subscriber.unsubscribe(channel));
    };
  }

  onResume(listener: () => void): () => void {
    this.resumeListeners.add(listener);
    return () => void this.resumeListeners.delete(listener);
  }

  /** On every (re)connection: every channel with a handler, then (after an outage) the listeners. */
  private resubscribe(): void {
    const resumed = this.connectedOnce;
    this.connectedOnce = true;
    const channels = this.registry.channels();
    const subscribing = channels.length === 0 ? Promise.resolve() : this.subscriber.subscribe(...channels);
    this.track(subscribing);
    if (!resumed) return;
    void subscribing.then(
      () => {
        for (const listener of this.resumeListeners) listener();
      },
      () => undefined,
    );
  }

  async ready(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  async close(): Promise<void> {
    this.registry.clear();
    this.resumeListeners.clear();
    await Promise.allSettled([this.subscriber.quit(), this.publisher.quit()]);
  }
}
