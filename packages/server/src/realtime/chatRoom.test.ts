import { describe, expect, it } from 'vitest';
import { InProcessBus } from './bus';
import { chatChannel, type MessageEvent } from './channels';
import { ChatRoom } from './chatRoom';
import { Connection } from './connection';

/** A connection whose socket records what is sent. */
function recordingConnection(): { connection: Connection; sent: number[] } {
  const sent: number[] = [];
  const socket = { readyState: 1, bufferedAmount: 0, send: (data: Buffer) => sent.push(JSON.parse(data.toString()).seq as number) };
  const connection = new Connection(socket as never, { framesPerSecond: 10, frameBurst: 10, maxBufferedBytes: 1024 });
  return { connection, sent };
}

const event = (seq: number): MessageEvent => ({ kind: 'message', chat_id: 'c', seq, frame: JSON.stringify({ seq }) });

describe('ChatRoom', () => {
  it('delivers out-of-order publishes in seq order, filling gaps from the store and dropping duplicates', async () => {
    const bus = new InProcessBus();
    const stored = [1, 2, 3, 4, 5, 6].map((seq) => ({ seq, frame: JSON.stringify({ seq }) }));
    const loads: number[] = [];
    const room = new ChatRoom('c', bus, async (_chat, afterSeq, limit) => {
      loads.push(afterSeq);
      return stored.filter((item) => item.seq > afterSeq).slice(0, limit);
    }, () => undefined);
    const { connection, sent } = recordingConnection();
    connection.startReplay('c');
    connection.finishReplay('c', 0);
    room.connections.add(connection);
    room.start(0);
    for (const seq of [1, 3, 2, 2, 6, 4, 5]) await bus.publish(chatChannel('c'), event(seq));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toEqual([1, 2, 3, 4, 5, 6]);
    expect(loads.length).toBeGreaterThan(0);
    room.close();
  });

  it('buffers live messages during a replay and sends only those above the replayed seq', () => {
    const { connection, sent } = recordingConnection();
    connection.startReplay('c');
    for (const seq of [4, 5, 6]) connection.deliver('c', seq, Buffer.from(JSON.stringify({ seq })));
    expect(sent).toEqual([]);
    connection.finishReplay('c', 5);
    expect(sent).toEqual([6]);
  });
});
