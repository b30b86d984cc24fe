// `@confab/client/agent`: the Agent SDK (docs/CONTRACTS.md "Agent SDK"). A light entry: no
// pocketbase SDK, no store, no renderer; runs in Node 20+ and browsers. Hand-written on purpose.
export { connectAgent } from './connectAgent';
export { simulateMention } from './simulateMention';
export type { SimulatedReplies } from './simulateMention';
export { AgentError, agentErrorCodes } from './errors';
export type { AgentErrorCode } from './errors';
export type {
  AgentConnection,
  AgentConnectionStatus,
  AgentEventMap,
  AgentEventType,
  AgentLogger,
  AgentWebSocket,
  AgentWebSocketConstructor,
  ConnectAgentOptions,
  MentionHandler,
  ReconnectOptions,
  Reply,
  ReplyOptions,
  ReplyStream,
} from './types';
// The wire types a handler meets, so an agent needs only this entry.
export type { AgentIdentity, Mention, WireMessage } from '../protocol';
