import type { AgentKeyAnswer } from '@confab/client/protocol';
import { rawRequest } from './http';
import type { RegisteredUser } from './fixtures';
import { TestSocket, type Frame } from './wsClient';

/** Creates a developer agent for `owner` through the API; answers the agent and its one-time key. */
export async function createAgent(
  baseUrl: string,
  owner: RegisteredUser,
  body: Record<string, unknown> = {},
): Promise<AgentKeyAnswer> {
  const response = await rawRequest(baseUrl, 'POST', '/api/agents', { token: owner.pb.authStore.token, body: { name: 'Echo Bot', ...body } });
  if (response.status !== 200) throw new Error(`agent create failed: ${response.status} ${response.text}`);
  return response.body as AgentKeyAnswer;
}

/** A socket signed in with an agent's key (the authenticate_with_api_key frame). */
export async function agentSocket(baseUrl: string, apiKey: string): Promise<{ socket: TestSocket; answer: Frame }> {
  const socket = await TestSocket.open(baseUrl);
  socket.send({ type: 'authenticate_with_api_key', api_key: apiKey });
  const answer = await socket.next((frame) => frame.type === 'authSuccess' || frame.type === 'authError');
  return { socket, answer };
}

/** Lets developer agents into a chat (its admin's call). */
export async function allowDeveloperAgents(owner: RegisteredUser, chatId: string, allowed = true): Promise<void> {
  await owner.pb.collection('chats').update(chatId, { agent_permissions: { confab_agents: true, developer_agents: allowed } });
}
