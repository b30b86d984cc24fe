/**
 * How commands talk to the server. Every ConfabClient here is made with `autoConnect: false`:
 * Node 22+ has a global WebSocket, and a realtime socket a command did not ask for would keep
 * the process alive after its work is done (`confab login` never exiting on Node 24). Only
 * `confab tail` connects, on purpose.
 */
import { ConfabClient, ConfabError } from '@confab/client';
import type { ConfabClientOptions } from '@confab/client';
import { WebSocket as NodeWebSocket } from 'ws';
import { CliError } from './output';
import type { Session } from './session';

/** The WebSocket constructor: the platform's (Node 22+) or the `ws` package's (Node 20). */
export function webSocketConstructor(): typeof WebSocket {
  return (globalThis as { WebSocket?: typeof WebSocket }).WebSocket ?? (NodeWebSocket as unknown as typeof WebSocket);
}

/** A client that makes HTTP calls only. */
export function httpClient(baseUrl: string): ConfabClient {
  return new ConfabClient({ baseUrl, realtime: { autoConnect: false } });
}

/** A client acting as the signed-in person; realtime stays closed unless the caller connects it. */
export function personClient(session: Session, options: Pick<ConfabClientOptions, 'realtime'> = {}): ConfabClient {
  const client = new ConfabClient({ baseUrl: session.server, realtime: { ...options.realtime, autoConnect: false } });
  client.pb.authStore.save(session.token, null);
  return client;
}

/** A refused session says what to do about it; other failures pass through unchanged. */
export function explainSessionError(error: unknown): unknown {
  if (error instanceof ConfabError && error.status === 401) {
    return new CliError('Your session has expired or was signed out. Run `confab login` again.');
  }
  return error;
}
