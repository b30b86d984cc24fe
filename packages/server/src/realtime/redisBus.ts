import { Redis } from 'ioredis';
import { HandlerRegistry, type Bus, type BusHandler } from './bus';

/**
 * Fan-out across server instances through Redis pub/sub (REDIS_URL). A subscriber connection
 * can only subscribe, so publishing uses a second one. Redis delivers a message to every
 * subscriber, this instance included, so local sockets are served through the same path.
 */
export class RedisBus implements Bus {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly registry = new HandlerRegistry();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    redisUrl: string,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.publisher = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
    this.subscriber = new Redis(redisUrl, { lazyConnect: false });
    // Connection errors are reported and retried by ioredis; an unhandled 'error' would crash.
    this.publisher.on('error', onError);
    this.subscriber.on('error', onError);
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
    await this.publisher.publish(channel, JSON.stringify(payload));
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

  async ready(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  async close(): Promise<void> {
    this.registry.clear();
    await Promise.allSettled([this.subscriber.quit(), this.publisher.quit()]);
  }
}
