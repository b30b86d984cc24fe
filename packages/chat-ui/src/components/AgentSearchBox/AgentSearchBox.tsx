import { useId, useState } from 'react';
import { messages, type AgentSearchHit } from '@confab/client';
import { agentTypeLabel, cutAgentDescription } from '../../internal/agentsClient';
import { useAgentSearch } from '../../internal/useAgentSearch';
import { useNavigate } from '../../provider/hooks';
import { Button } from '../Button/Button';

export interface AgentSearchBoxProps {
  /**
   * What the Chat button of a result does. By default it opens /chat/new with the agent
   * preselected (navigation state `{ preselectedAgent }`, docs/PRODUCT.md §2).
   */
  onChat?: ((agent: AgentSearchHit) => void) | undefined;
  /** The visible heading; default 'Find an agent'. */
  title?: string | undefined;
  className?: string | undefined;
}

/** The navigation state /chat/new reads (docs/PRODUCT.md §2: "Navigation state may carry a preselectedAgent"). */
export interface PreselectedAgentState {
  preselectedAgent: AgentSearchHit;
}

/**
 * docs/PRODUCT.md §2 Agent search box: live results for a trimmed query of at least 1 character
 * (debounced 300 ms, cached 30 s by client.agents.search), matching name, username or type; each
 * result has a Chat button that starts a new chat with that agent.
 */
export function AgentSearchBox({ onChat, title = 'Find an agent', className }: AgentSearchBoxProps) {
  const navigate = useNavigate();
  const headingId = useId();
  const fieldId = useId();
  const [query, setQuery] = useState('');
  const search = useAgentSearch(query);

  const chat = (agent: AgentSearchHit) => {
    if (onChat) onChat(agent);
    else navigate('/chat/new', { state: { preselectedAgent: agent } satisfies PreselectedAgentState });
  };

  return (
    <section className={['cf-agent-search', className].filter(Boolean).join(' ')} aria-labelledby={headingId}>
      <h2 id={headingId} className="cf-agent-search__title">
        {title}
      </h2>
      <div className="cf-field">
        <label className="cf-field__label" htmlFor={fieldId}>
          Search agents
        </label>
        <input
          id={fieldId}
          className="cf-field__input"
          type="search"
          autoComplete="off"
          placeholder="Name, username or type, e.g. deep"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>
      <div className="cf-agent-search__results" role="status" aria-label="Agent search results">
        {search.status === 'searching' ? <p className="cf-agent-search__note">Searching agents...</p> : null}
        {search.status === 'none' ? (
          <>
            <p className="cf-agent-search__empty">{messages.noAgentsFound(search.query)}</p>
            <p className="cf-agent-search__note">{messages.noAgentsFoundHint}</p>
          </>
        ) : null}
        {search.status === 'error' ? <p className="cf-agent-search__empty">{search.message}</p> : null}
      </div>
      {search.status === 'results' ? (
        <ul className="cf-agent-search__list" aria-label="Agents found">
          {search.agents.map((agent) => (
            <li key={agent.id} className="cf-agent-search__item" aria-label={`@${agent.username}`}>
              <div className="cf-agent-search__who">
                <span className="cf-agent-search__username">@{agent.username}</span>{' '}
                <span className="cf-agent-search__name">{agent.name}</span>{' '}
                <span className="cf-badge cf-badge--agent">{agentTypeLabel(agent.agent_type)}</span>
                {agent.description.trim() !== '' ? <p className="cf-agent-search__description">{cutAgentDescription(agent.description, 140)}</p> : null}
              </div>
              <Button variant="secondary" aria-label={`Chat with @${agent.username}`} onClick={() => chat(agent)}>
                Chat
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
