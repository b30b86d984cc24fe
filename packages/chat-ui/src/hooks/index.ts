// Headless hooks: state and actions without chat-ui's markup, for hosts that bring their own UI.
export { useChatList } from './useChatList';
export type { ChatListState } from './useChatList';
export { useChat } from './useChat';
export type { ChatState } from './useChat';
export { useAgentSearch } from './useAgentSearch';
export type { AgentSearchOptions, AgentSearchState } from './useAgentSearch';
export { useDropsFeed } from './useDropsFeed';
export type { DropsFeedView } from './useDropsFeed';
