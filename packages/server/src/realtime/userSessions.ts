import type { Bus } from './bus';
import { isUserEvent, userChannel, type UserEvent } from './channels';
import type { Connection } from './connection';

/**
 * Authenticated sockets per user on this instance, with one `user:<id>` subscription per user
 * (not per socket) for chat-list events and revocation.
 */
export class UserSessions {
  private readonly users = new Map<string, { connections: Set<Connection>; unsubscribe: () => void }>();

  constructor(
    private readonly bus: Bus,
    private readonly onEvent: (connections: ReadonlySet<Connection>, event: UserEvent) => void,
  ) {}

  /** Resolves once the user's channel is live, so no event after authSuccess is missed. */
  async add(userId: string, connection: Connection): Promise<void> {
    let entry = this.users.get(userId);
    if (entry === undefined) {
      const connections = new Set<Connection>();
      const unsubscribe = this.bus.subscribe(userChannel(userId), (payload) => {
        if (isUserEvent(payload)) this.onEvent(connections, payload);
      });
      entry = { connections, unsubscribe };
      this.users.set(userId, entry);
    }
    entry.connections.add(connection);
    await this.bus.ready();
  }

  remove(userId: string, connection: Connection): void {
    const entry = this.users.get(userId);
    if (entry === undefined) return;
    entry.connections.delete(connection);
    if (entry.connections.size > 0) return;
    entry.unsubscribe();
    this.users.delete(userId);
  }

  /** Whether the user has an authenticated socket on this instance. */
  has(userId: string): boolean {
    return (this.users.get(userId)?.connections.size ?? 0) > 0;
  }

  *allConnections(): Iterable<Connection> {
    for (const entry of this.users.values()) yield* entry.connections;
  }

  closeAll(): void {
    for (const entry of this.users.values()) entry.unsubscribe();
    this.users.clear();
  }
}
