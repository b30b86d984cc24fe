import type { Bus } from './bus';
import { ChatRoom, type FrameLoader } from './chatRoom';
import type { Connection } from './connection';

/** Messages a room reads at a time when it catches up after the bus was down. */
const catchUpPageSize = 200;

/** The chat rooms of this instance: a room (and its bus subscription) lives while a socket is joined. */
export class RoomRegistry {
  private readonly rooms = new Map<string, Promise<ChatRoom>>();
  private readonly started = new Map<string, ChatRoom>();

  private readonly stopResuming: () => void;

  constructor(
    private readonly options: {
      bus: Bus;
      load: FrameLoader;
      lastSeq: (chatId: string) => Promise<number>;
      onError: (error: unknown) => void;
      /** A live message's store-to-sockets time, per room (the fan-out latency metric). */
      onFannedOut?: (latencyMs: number) => void;
    },
  ) {
    // Messages published while the bus was down never arrive: each room reads them from the database.
    this.stopResuming = options.bus.onResume(() => void this.catchUpAll());
  }

  private async catchUpAll(): Promise<void> {
    for (const room of [...this.started.values()]) {
      try {
        await room.catchUp(await this.options.lastSeq(room.chatId), catchUpPageSize);
      } catch (error) {
        this.options.onError(error);
      }
    }
  }

  private open(chatId: string): Promise<ChatRoom> {
    const opening = (async () => {
      const room = new ChatRoom(chatId, this.options.bus, this.options.load, this.options.onError, this.options.onFannedOut);
      try {
        // The subscription must be live before the last seq is read, or a message could slip between.
        await this.options.bus.ready();
        room.start(await this.options.lastSeq(chatId));
      } catch (error) {
        room.close();
        this.rooms.delete(chatId);
        throw error;
      }
      this.started.set(chatId, room);
      return room;
    })();
    this.rooms.set(chatId, opening);
    return opening;
  }

  /** Adds the connection to the chat's room, opening it first when needed. */
  async join(chatId: string, connection: Connection): Promise<ChatRoom> {
    for (;;) {
      const opening = this.rooms.get(chatId) ?? this.open(chatId);
      const room = await opening;
      // The room may have been emptied and closed while this join waited for it.
      if (this.rooms.get(chatId) !== opening) continue;
      room.connections.add(connection);
      return room;
    }
  }

  leave(chatId: string, connection: Connection): void {
    const room = this.started.get(chatId);
    if (room === undefined) return;
    room.connections.delete(connection);
    if (room.connections.size > 0) return;
    room.close();
    this.started.delete(chatId);
    this.rooms.delete(chatId);
  }

  closeAll(): void {
    this.stopResuming();
    for (const room of this.started.values()) room.close();
    this.started.clear();
    this.rooms.clear();
  }
}
