import type { ChatPresenceAnswer } from '../protocol';
import type { FakeChat, FakeUser } from './fakeBackend';
import { callerId, errorResponse, json } from './fakeHttp';

/**
 * GET /api/chats/{id}/presence (docs/CONTRACTS.md, Typing and presence): the participants in
 * `online` (people, never agents), to participants only. The fake has no sockets: a test or story
 * says who is online by filling `online`.
 */
export function createPresenceRoutes(data: { users: FakeUser[]; chats: FakeChat[]; online: Set<string> }) {
  const isAgent = (userId: string) => {
    const type = data.users.find((user) => user.id === userId)?.type ?? 'user';
    return type === 'confab-agent' || type === 'developer-agent';
  };
  return (request: Request, url: URL): Response | null => {
    const route = /^\/api\/chats\/([^/]+)\/presence$/.exec(url.pathname);
    if (route === null || request.method !== 'GET') return null;
    const caller = callerId(request);
    if (caller === null) return errorResponse(401, 'The request requires valid record authorization token.');
    const chat = data.chats.find((candidate) => candidate.id === decodeURIComponent(route[1] ?? '') && candidate.participants.includes(caller));
    if (chat === undefined) return errorResponse(404, 'Chat not found');
    const answer: ChatPresenceAnswer = { chat_id: chat.id, online: chat.participants.filter((id) => data.online.has(id) && !isAgent(id)) };
    return json(200, answer);
  };
}
