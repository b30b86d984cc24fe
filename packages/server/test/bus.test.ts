import { afterEach, describe, expect, it } from 'vitest';
import { InProcessBus, type Bus } from '../src/realtime/bus';
import { RedisBus } from '../src/realtime/redisBus';
import { redisAvailable, redisUrl } from './support/redis';

/** Both buses run through the same suite (house style: one suite per interface). */
const implementations: { name: string; create: () => Bus }[] = [{ name: 'in-process', create: () => new InProcessBus() }];
if (await redisAvailable()) implementations.push({ name: 'redis', create: () => new RedisBus(redisUrl) });

function channel(name: string): string {
  return `test:${name}:${Math.random().toString(36).slice(2, 10)}`;
}

function collector() {
  const received: unknown[] = [];
  return {
    received,
    handler: (payload: unknown) => void received.push(payload),
    async until(count: number, timeoutMs = 3000): Promise<unknown[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      return received;
    },
  };
}

const settleMs = 100;

describe.each(implementations)('bus ($name)', ({ create }) => {
  const buses: Bus[] = [];
  const open = () => {
    const bus = create();
    buses.push(bus);
    return bus;
  };

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
  });

  it('delivers JSON payloads to every subscriber of the channel, in publish order', async () => {
    const bus = open();
    const name = channel('order');
    const first = collector();
    const second = collector();
    bus.subscribe(name, first.handler);
    bus.subscribe(name, second.handler);
    await bus.ready();
    for (let index = 0; index < 50; index += 1) await bus.publish(name, { index, text: `é ${index}` });
    expect(await first.until(50)).toEqual(Array.from({ length: 50 }, (_, index) => ({ index, text: `é ${index}` })));
    expect(await second.until(50)).toHaveLength(50);
  });

  it('keeps channels apart and stops delivering after unsubscribe', async () => {
    const bus = open();
    const [left, right] = [channel('left'), channel('right')];
    const leftCollector = collector();
    const unsubscribe = bus.subscribe(left, leftCollector.handler);
    await bus.ready();
    await bus.publish(right, 'not for left');
    await bus.publish(left, 'one');
    await leftCollector.until(1);
    unsubscribe();
    await bus.ready();
    await bus.publish(left, 'two');
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    expect(leftCollector.received).toEqual(['one']);
  });

  it('keeps delivering to other handlers when one throws', async () => {
    const bus = open();
    const name = channel('throw');
    const good = collector();
    bus.subscribe(name, () => {
      throw new Error('handler bug');
    });
    bus.subscribe(name, good.handler);
    await bus.ready();
    await bus.publish(name, 1);
    expect(await good.until(1)).toEqual([1]);
  });

  it('publishing to a channel nobody listens to is fine', async () => {
    await expect(open().publish(channel('nobody'), { a: 1 })).resolves.toBeUndefined();
  });
});

describe.runIf(implementations.length > 1)('redis bus across instances', () => {
  it('delivers a message published by one instance to the subscribers of another', async () => {
    const publisher = new RedisBus(redisUrl);
    const subscriber = new RedisBus(redisUrl);
    try {
      const name = channel('cross');
      const received = collector();
      subscriber.subscribe(name, received.handler);
      await subscriber.ready();
      await publisher.publish(name, { from: 'A' });
      expect(await received.until(1)).toEqual([{ from: 'A' }]);
    } finally {
      await publisher.close();
      await subscriber.close();
    }
  });
});
