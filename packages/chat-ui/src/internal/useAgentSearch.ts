import { useEffect, useState } from 'react';
import { constants, shouldSearchAgents, toConfabError, type AgentSearchHit } from '@confab/client';
import { useConfabClient } from '../provider/hooks';
import { agentsOf } from './agentsClient';

/** docs/PRODUCT.md §4 agent autocomplete states (plus idle before any query, and a failed search). */
export type AgentSearchState =
  | { status: 'idle' }
  | { status: 'searching'; query: string }
  | { status: 'results'; query: string; agents: AgentSearchHit[] }
  | { status: 'none'; query: string }
  | { status: 'error'; query: string; message: string };

export interface AgentSearchOptions {
  /** Only agent types this chat permits (docs/PRODUCT.md §6). */
  chatId?: string | undefined;
  /** Default 300 ms (docs/PRODUCT.md §9). */
  debounceMs?: number | undefined;
}

const idle: AgentSearchState = { status: 'idle' };

/**
 * Live agent search through client.agents.search (cached 30 s there): idle for a null or blank
 * query, then 'searching' for the debounce and the request, then 'results' or 'none'. A newer
 * query cancels the older request.
 */
export function useAgentSearch(query: string | null, { chatId, debounceMs = constants.agentSearch.debounceMs }: AgentSearchOptions = {}): AgentSearchState {
  const client = useConfabClient();
  const [state, setState] = useState<AgentSearchState>(idle);
  const trimmed = query === null || !shouldSearchAgents(query) ? null : query.trim();

  useEffect(() => {
    if (trimmed === null) {
      setState(idle);
      return undefined;
    }
    setState({ status: 'searching', query: trimmed });
    const controller = new AbortController();
    const timer = setTimeout(() => {
      agentsOf(client)
        .search(trimmed, { chatId, signal: controller.signal })
        .then(
          (agents) => {
            if (controller.signal.aborted) return;
            setState(agents.length > 0 ? { status: 'results', query: trimmed, agents } : { status: 'none', query: trimmed });
          },
          (error: unknown) => {
            const failure = toConfabError(error);
            if (controller.signal.aborted || failure.isAbort) return;
            setState({ status: 'error', query: trimmed, message: failure.message });
          },
        );
    }, debounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [client, trimmed, chatId, debounceMs]);

  if (trimmed === null) return idle;
  // Until the effect catches up with a new query, the old answer must not show under it.
  return state.status !== 'idle' && state.query === trimmed ? state : { status: 'searching', query: trimmed };
}
