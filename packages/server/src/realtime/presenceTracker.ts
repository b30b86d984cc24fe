import type { PresenceService } from '../services/presence';
import type { Connection } from './connection';

/**
 * Counts a person's sockets in the presence store in the order they opened and closed: a socket
 * that closes while its opening is still counted waits for it, so a count never goes below zero
 * (nor stays up for a socket already gone). Agents' sockets are counted by the agent runtime.
 */
export class PresenceTracker {
  private readonly openings = new WeakMap<Connection, Promise<void>>();

  constructor(
    private readonly presence: PresenceService,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** After authSuccess: never delays the answer. */
  opened(connection: Connection, userId: string): void {
    this.openings.set(connection, this.presence.connected(userId).catch(this.onError));
  }

  closed(connection: Connection, userId: string): void {
    const opening = this.openings.get(connection);
    if (opening === undefined) return;
    this.openings.delete(connection);
    void opening.then(() => this.presence.disconnected(userId)).catch(this.onError);
  }
}
