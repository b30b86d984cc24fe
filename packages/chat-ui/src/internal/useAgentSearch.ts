import { useEffect, useState } from 'react';
import { constants, resolveAgentPermissions, shouldSearchAgents, toConfabError, type AgentSearchHit, type ClientState } from '@confab/client';
import { useConfabClient, useConfabStore } from '../provider/hooks';
import { agentsOf } from './agentsClient';

/** docs/PRODUCT.md §4 agent autocomplete states (plus idle before any query, and a failed search). */
export type AgentSearchState =
  | { status: 'idle' }
  | { status: 'searching'; query: string }
  | { status: 'results'; query: string; agents: AgentSearchHit[] }
  | { status: 'none'; query: string }
  | { status: 'error'; query: string; message: string };

export interface AgentSearchOptions {
  /**
   * Only agent types this chat permits (docs/PRODUCT.md §6); a blank query then lists all of them
   * (a bare `@`), and a change of the chat's agent settings asks again.
   */
  chatId?: string | undefined;
  /** Default 300 ms (docs/PRODUCT.md §9). */
  debounceMs?: number | undefined;
}

const idle: AgentSearchState = { status: 'idle' };

/** The agent types the chat permits as the store holds it ('' without the chat): a change means ask again. */
function permittedTypes(state: ClientState, chatId: string | undefined): string {
  if (chatId === undefined || chatId === '') return '';
  const chat = state.currentChat?.id === chatId ? state.currentChat : state.chats.find((candidate) => candidate.id === chatId);
  if (chat === undefined) return '';
  const permitted = resolveAgentPermissions(chat);
  return `${permitted.confabAgents}:${permitted.developerAgents}`;
}

/**
 * Live agent search through client.agents.search (cached 30 s there): idle for a null query, or a
 * blank one outside a chat, then 'searching' for the debounce and the request, then 'results' or
 * 'none'. A newer query cancels the older request; so does a change of the chat's agent settings
 * (`agent_permissions`, live through chat_updated), which asks again.
 */
export function useAgentSearch(query: string | null, { chatId, debounceMs = constants.agentSearch.debounceMs }: AgentSearchOptions = {}): AgentSearchState {
  const client = useConfabClient();
  const permitted = useConfabStore((state) => permittedTypes(state, chatId));
  // The answer, and the question (query and the chat's settings) it answers.
  const [answer, setAnswer] = useState<{ asked: string; state: AgentSearchState }>({ asked: '', state: idle });
  const inChat = chatId !== undefined && chatId !== '';
  const trimmed = query === null || (!shouldSearchAgents(query) && !inChat) ? null : query.trim();
  const asked = `${trimmed ?? ''}\u0000${permitted}`;

  useEffect(() => {
    if (trimmed === null) {
      setAnswer({ asked, state: idle });
      return undefined;
    }
    setAnswer({ asked, state: { status: 'searching', query: trimmed } });
    const controller = new AbortController();
    const timer = setTimeout(() => {
      agentsOf(client)
        .search(trimmed, { chatId, signal: controller.signal })
        .then(
          (agents) => {
            if (controller.signal.aborted) return;
            setAnswer({ asked, state: agents.length > 0 ? { status: 'results', query: trimmed, agents } : { status: 'none', query: trimmed } });
          },
          (error: unknown) => {
            const failure = toConfabError(error);
            if (controller.signal.aborted || failure.isAbort) return;
            setAnswer({ asked, state: { status: 'error', query: trimmed, message: failure.message } });
          },
        );
    }, debounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [client, trimmed, chatId, debounceMs, asked]);

  if (trimmed === null) return idle;
  // Until the effect catches up with a new question, the old answer must not show under it.
  return answer.asked === asked && answer.state.status !== 'idle' ? answer.state : { status: 'searching', query: trimmed };
}
