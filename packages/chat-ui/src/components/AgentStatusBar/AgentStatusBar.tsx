import type { AgentStatusLine } from '@confab/client';

export interface AgentStatusBarProps {
  /** The open chat's status lines (store.agentStatuses), in arrival order. */
  statuses: readonly AgentStatusLine[];
}

/**
 * Under the message list: what agents are doing right now ('@deep is searching…'), each line
 * until that agent's reply ends. A polite live region that is always present, so a new line is
 * announced without taking the focus.
 */
export function AgentStatusBar({ statuses }: AgentStatusBarProps) {
  return (
    <div className="cf-agent-status" role="status" aria-label="Agent activity">
      {statuses.length > 0 ? (
        <ul className="cf-agent-status__list">
          {statuses.map((line) => (
            <li key={line.agent.id} className="cf-agent-status__line">
              <span className="cf-typing" aria-hidden="true">
                <span />
                <span />
                <span />
              </span>{' '}
              <strong>@{line.agent.username}</strong> {line.text}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
