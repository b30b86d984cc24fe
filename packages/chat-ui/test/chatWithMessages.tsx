import { act, screen, within } from '@testing-library/react';
import { createFakeBackend, type FakeMessage } from '@confab/client/testing/fakeBackend';
import { ChatPage } from '../src/screens/ChatPage/ChatPage';
import { renderWithConfab, type ConfabRenderResult } from './renderWithConfab';

/** Alice and Bob, people, and @deep, an agent, in the chat 'Design'. */
export const people = {
  alice: { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' },
  bob: { id: 'user_bob_000001', username: 'bob', email: 'bob@example.com', name: 'Bob Builder', password: 'builder123' },
  deep: { id: 'agent_deep_0001', username: 'deep', email: 'deep@agents.example', name: 'Deep Research', password: 'x', type: 'confab-agent' },
};

export const chatId = 'chat_design_001';

export interface ChatWithMessages extends ConfabRenderResult {
  /** The stored messages: Bob's 'Shall we ship?', Alice's 'On Friday', @deep's 'Here is what I found.' */
  stored: { bob: FakeMessage; alice: FakeMessage; deep: FakeMessage };
  log: HTMLElement;
  /** A message's article, by its author's name ('Bob Builder', 'Deep Research (Agent)'). */
  article: (name: string) => HTMLElement;
}

/**
 * The chat page of 'Design' (Alice, Bob and @deep; Alice its only admin unless `admins` says
 * otherwise), signed in as `as`, once its three messages are on screen.
 */
export async function openChatWithMessages({ as = 'alice', admins = [people.alice.id], WebSocket }: { as?: 'alice' | 'bob'; admins?: string[]; WebSocket?: unknown } = {}): Promise<ChatWithMessages> {
  const backend = createFakeBackend({ users: Object.values(people) });
  backend.addChat({ id: chatId, name: 'Design', participants: [people.alice.id, people.bob.id, people.deep.id], admins });
  const texts = ['Shall we ship?', 'On Friday', 'Here is what I found.'];
  const [bob, alice, deep] = backend.addMessages(chatId, 3, [people.bob.id, people.alice.id, people.deep.id], (index) => texts[index] ?? '') as [FakeMessage, FakeMessage, FakeMessage];
  const result = renderWithConfab(<ChatPage chatId={chatId} />, { backend, WebSocket });
  await act(() => result.client.login(as, people[as].password));
  const log = await screen.findByRole('log', { name: 'Messages' });
  await within(log).findByText('Here is what I found.');
  return { ...result, stored: { bob, alice, deep }, log, article: (name) => within(log).getByRole('article', { name }) };
}

/** Presses Tab until `target()` has the focus (at most `limit` times); throws if it never does. */
export async function tabTo(user: ConfabRenderResult['user'], target: () => HTMLElement, limit = 12): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    if (document.activeElement === target()) return;
    await user.tab();
  }
  if (document.activeElement !== target()) throw new Error(`Tab never reached ${target().outerHTML.slice(0, 120)}`);
}
