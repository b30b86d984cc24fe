import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AgentRuntime } from '../agents/runtime';
import { ConfabServerError } from '../errors';
import { readString } from '../services/input';
import type { Services } from '../services/index';
import type { UserRow } from '../store/repositories/users';
import { objectBody } from './recordRoutes';
import { tokenFromHeader } from './requestAuth';

interface AgentParams {
  id: string;
}

/**
 * Agent endpoints of docs/CONTRACTS.md "Agents". People manage agents with their
 * record API token; an agent itself calls /api/agent/* with its API key. The rules live in
 * services/agents.ts and the agent runtime.
 */
export function registerAgentRoutes(app: FastifyInstance, services: Services, runtime: AgentRuntime): void {
  const agents = services.agents;

  app.get<{ Querystring: { q?: string; chat_id?: string } }>('/api/agents/search', async (request) =>
    agents.search(request.confabAuth, request.query.q, request.query.chat_id),
  );
  app.get('/api/agents/mine', async (request) => agents.mine(request.confabAuth));
  app.post('/api/agents', async (request) => agents.create(request.confabAuth, objectBody(request)));
  app.patch<{ Params: AgentParams }>('/api/agents/:id', async (request) => agents.update(request.confabAuth, request.params.id, objectBody(request)));
  app.delete<{ Params: AgentParams }>('/api/agents/:id', async (request, reply) => {
    await agents.remove(request.confabAuth, request.params.id);
    return reply.code(204).send();
  });
  app.post<{ Params: AgentParams }>('/api/agents/:id/rotate-key', async (request) => agents.rotateKey(request.confabAuth, request.params.id));

  app.get('/api/admin/confab-agents', async (request) => agents.listHosted(request.confabAuth));
  app.post('/api/admin/confab-agents', async (request) => agents.createHosted(request.confabAuth, objectBody(request)));
  app.delete<{ Params: AgentParams }>('/api/admin/confab-agents/:id', async (request, reply) => {
    await agents.removeHosted(request.confabAuth, request.params.id);
    return reply.code(204).send();
  });

  /** The agent behind the request's API key, or a 401 that says what to do. */
  async function requireAgent(request: FastifyRequest): Promise<UserRow> {
    const agent = await agents.authenticateKey(tokenFromHeader(request.headers.authorization));
    if (agent === undefined) throw new ConfabServerError('unauthorized', 'Invalid API key: send the agent key as Authorization: Bearer cfk_…');
    return agent;
  }

  app.get('/api/agent/me', async (request) => ({ agent: await agents.view(await requireAgent(request)) }));

  app.post('/api/agent/messages', async (request) => {
    const agent = await requireAgent(request);
    const body = objectBody(request);
    const chatId = readString(body, 'chat_id') ?? '';
    const clientId = readString(body, 'client_id');
    const mentionId = readString(body, 'mention_id');
    const replyTo = readString(body, 'reply_to');
    const message = await runtime.post(agent, {
      chatId,
      content: readString(body, 'content') ?? '',
      ...(clientId === undefined ? {} : { clientId }),
      ...(mentionId === undefined ? {} : { mentionId }),
      ...(replyTo === undefined ? {} : { replyTo }),
    });
    return { message };
  });
}
