import { useId, type ReactNode } from 'react';
import type { AgentView } from '@confab/client';
import { Alert } from '../Alert/Alert';

export interface AgentCardFrameProps {
  agent: Pick<AgentView, 'name' | 'username' | 'description'>;
  /** Shown in the header after @username: presence, availability. */
  badges: ReactNode;
  /** The failure of the card's last action, announced as an alert. */
  error: string | null;
  /** The card's controls (availability, dev room, actions). */
  children: ReactNode;
}

/**
 * One agent as a card (an article named by the agent's name): name, @username and badges, the
 * description when there is one, an error, then the controls.
 */
export function AgentCardFrame({ agent, badges, error, children }: AgentCardFrameProps) {
  const headingId = useId();
  return (
    <article className="cf-card cf-agent-card" aria-labelledby={headingId}>
      <header className="cf-agent-card__header">
        <h3 id={headingId} className="cf-agent-card__name">
          {agent.name}
        </h3>
        <span className="cf-agent-card__username">@{agent.username}</span>
        {badges}
      </header>
      {agent.description.trim() !== '' ? <p className="cf-agent-card__description">{agent.description}</p> : null}
      {error !== null ? <Alert>{error}</Alert> : null}
      {children}
    </article>
  );
}
