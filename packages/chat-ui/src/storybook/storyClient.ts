import { ConfabClient, type ClientState, type UserRecord } from '@confab/client';
import { createFakeBackend, fakeToken, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { storyDeveloperAgents, storyHostedAgents } from './storyAgents';

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
  signedIn?: boolean | undefined;
  /** Hold every request forever, so a submit stays in its "submitting" state. */
  pending?: boolean | undefined;
  /** Adjust the fake backend, e.g. `backend.override(...)` to answer with an error. */
  configure?: ((backend: FakeBackend) => void) | undefined;
  /** Extra client state to start from, e.g. `{ chats, sidebarOpen: true }`. */
  state?: Partial<ClientState> | undefined;
  /** Alice is a server admin (Confab Agents Management). */
  admin?: boolean | undefined;
}

/**
 * A real ConfabClient over the in-memory fake backend: stories need no server, yet every state
 * they show comes from the real client code path.
 */
export function createStoryClient({ signedIn = false, pending = false, configure, state, admin = false }: StoryClientOptions = {}): {
  client: ConfabClient;
  backend: FakeBackend;
} {
  const backend = createFakeBackend({
    users: [
      { ...storyUser, id: storyUserRecord.id, is_admin: admin },
      { id: 'storyuser000002', username: 'bob', email: 'bob@example.com', name: 'Bob Builder', password: 'bob-password' },
      { id: 'storyuser000003', username: 'carol', email: 'carol@example.com', name: 'Carol', password: 'carol-password' },
      { id: 'agent0000000001', username: 'deep', email: 'deep@agents.example', name: 'Deep Research', password: 'x', type: 'confab-agent' },
    ],
  });
  // Chats given as state also exist on the fake server, so client.chats.list() finds them.
  for (const chat of state?.chats ?? []) {
    const participants = chat.participants.length > 0 ? chat.participants : [storyUserRecord.id];
    backend.addChat({ ...chat, participants, admins: chat.admins.length > 0 ? chat.admins : [storyUserRecord.id], agent_permissions: chat.agent_permissions ?? null, email_address: chat.email_address ?? '', auto_route_enabled: chat.auto_route_enabled ?? false, auto_route_agent: chat.auto_route_agent ?? '' });
  }
  // Likewise pending invitations given as state, addressed to Alice.
  for (const invitation of state?.invitations ?? []) backend.addInvitation({ ...invitation, invitee: storyUserRecord.id });
  // The hosted agents a server starts with, and Alice's own developer agents.
  for (const agent of [...storyDeveloperAgents, ...storyHostedAgents]) backend.agents.push({ ...agent });
  backend.resetTokens.add('story-reset-token');
  if (pending) backend.hold();
  configure?.(backend);
  // An unroutable origin: should anything bypass the fake fetch it fails fast instead of
  // reaching a real server.
  const client = new ConfabClient({ baseUrl: 'http://confab.invalid', fetch: backend.fetch, realtime: { autoConnect: false } });
  client.store.setState({ initializing: false });
  if (signedIn) {
    // A session the fake server accepts, so record calls (chats, messages) work in stories.
    const user = admin ? { ...storyUserRecord, is_admin: true } : storyUserRecord;
    client.pb.authStore.save(fakeToken(storyUserRecord.id, 24 * 3600), user as never);
    client.store.setState({ user, isAuthenticated: true });
  }
  if (state) client.store.setState(state);
  return { client, backend };
}
