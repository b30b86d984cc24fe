import { ConfabClient, type ClientState, type UserRecord } from '@confab/client';
import { createFakeBackend, type FakeBackend } from '../testing/fakeBackend';

/** Credentials stories use; the fake backend knows this account. */
export const storyUser = { username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };

export const storyUserRecord: UserRecord = {
  id: 'storyuser000001',
  username: storyUser.username,
  name: storyUser.name,
  email: storyUser.email,
  type: 'user',
  created: '2026-01-01 00:00:00.000Z',
  updated: '2026-01-01 00:00:00.000Z',
};

export interface StoryClientOptions {
  /** Start signed in as Alice (store state only; no network). */
  signedIn?: boolean;
  /** Hold every request forever, so a submit stays in its "submitting" state. */
  pending?: boolean;
  /** Adjust the fake backend, e.g. `backend.override(...)` to answer with an error. */
  configure?: (backend: FakeBackend) => void;
  /** Extra client state to start from, e.g. `{ chats, sidebarOpen: true }`. */
  state?: Partial<ClientState>;
}

/**
 * A real ConfabClient over the in-memory fake backend: stories need no server, yet every state
 * they show comes from the real client code path.
 */
export function createStoryClient({ signedIn = false, pending = false, configure, state }: StoryClientOptions = {}): {
  client: ConfabClient;
  backend: FakeBackend;
} {
  const backend = createFakeBackend({ users: [storyUser] });
  backend.resetTokens.add('story-reset-token');
  if (pending) backend.hold();
  configure?.(backend);
  // An unroutable origin: should anything bypass the fake fetch it fails fast instead of
  // reaching a real server.
  const client = new ConfabClient({ baseUrl: 'http://confab.invalid', fetch: backend.fetch });
  client.store.setState({ initializing: false });
  if (signedIn) client.store.setState({ user: storyUserRecord, isAuthenticated: true });
  if (state) client.store.setState(state);
  return { client, backend };
}
