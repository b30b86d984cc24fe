import { messages as texts, type AgentSearchHit } from '@confab/client';
import { agentTypeLabel, cutAgentDescription } from '../../internal/agentsClient';
import type { AgentSearchState } from '../../internal/useAgentSearch';

export interface AgentAutocompleteProps {
  /** What the search for the mention being typed stands at; 'idle' renders nothing (hidden). */
  state: AgentSearchState;
  /** The listbox's id, which the message field names in aria-controls. */
  listboxId: string;
  /** The id of the option at `index`, which the field names in aria-activedescendant. */
  optionId: (index: number) => string;
  /** The highlighted option (keyboard ↑ ↓ or the pointer). */
  activeIndex: number;
  onPick: (agent: AgentSearchHit) => void;
  onActivate?: ((index: number) => void) | undefined;
}

/**
 * The @ dropdown of the message input (docs/PRODUCT.md §4 states hidden, searching, results, none):
 * a listbox of agents the chat permits (all of them for a bare @), each with its username, name,
 * type and a description cut to 60 characters. The message field stays focused: it is the combobox that owns this listbox.
 */
export function AgentAutocomplete({ state, listboxId, optionId, activeIndex, onPick, onActivate }: AgentAutocompleteProps) {
  if (state.status === 'idle') return null;
  return (
    <div className="cf-autocomplete" role="region" aria-label="Agent suggestions">
      {state.status === 'searching' ? (
        <p className="cf-autocomplete__hint" role="status">
          Searching agents...
        </p>
      ) : null}
      {state.status === 'none' && state.query === '' ? (
        // A bare @: the chat allows no agent at all.
        <div role="status">
          <p className="cf-autocomplete__empty">{texts.noAgentsInChat}</p>
          <p className="cf-autocomplete__hint">{texts.noAgentsInChatHint}</p>
        </div>
      ) : null}
      {state.status === 'none' && state.query !== '' ? (
        <div role="status">
          <p className="cf-autocomplete__empty">{texts.noAgentsFound(state.query)}</p>
          <p className="cf-autocomplete__hint">{texts.noAgentsFoundHint} Only agent types this chat allows are offered.</p>
        </div>
      ) : null}
      {state.status === 'error' ? (
        <p className="cf-autocomplete__empty" role="status">
          {state.message}
        </p>
      ) : null}
      {state.status === 'results' ? (
        <ul id={listboxId} className="cf-autocomplete__list" role="listbox" aria-label="Agents">
          {state.agents.map((agent, index) => (
            <li
              key={agent.id}
              id={optionId(index)}
              role="option"
              aria-selected={index === activeIndex}
              className="cf-autocomplete__option"
              // Keep the focus (and the caret) in the message field.
              onMouseDown={(event) => event.preventDefault()}
              onMouseEnter={() => onActivate?.(index)}
              onClick={() => onPick(agent)}
            >
              <span className="cf-autocomplete__username">@{agent.username}</span>{' '}
              <span className="cf-autocomplete__name">{agent.name}</span>{' '}
              <span className="cf-badge cf-badge--agent">{agentTypeLabel(agent.agent_type)}</span>
              {agent.description.trim() !== '' ? <span className="cf-autocomplete__description">{cutAgentDescription(agent.description)}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
