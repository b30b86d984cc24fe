/*
 * The headless agent search is the one the message input's @-autocomplete and the agent search
 * box use (internal/useAgentSearch.ts); it is exported from here with the other headless hooks.
 */
export { useAgentSearch } from '../internal/useAgentSearch';
export type { AgentSearchOptions, AgentSearchState } from '../internal/useAgentSearch';
