import { WebSocket, WebSocketServer } from 'ws';

/* The `ws` package for node tests: Node 20 has no global WebSocket. */
export const NodeWebSocket = WebSocket;
export { WebSocketServer };
export type NodeWebSocket = WebSocket;
/** `ws` typed as the browser constructor RealtimeConnection expects; it is compatible at runtime. */
export const WebSocketForTests = WebSocket as unknown as typeof globalThis.WebSocket;
