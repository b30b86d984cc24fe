import type { AgentNotice as AgentNoticeData } from '@confab/client';

export interface AgentNoticeProps {
  notice: AgentNoticeData;
}

/**
 * A system message about a mention in the user's own message (the agent is offline and the
 * mention waits, agents of that kind are off here, …). Only this user sees it, and it is not
 * stored: it goes with a reload.
 */
export function AgentNotice({ notice }: AgentNoticeProps) {
  return (
    <div className={`cf-notice cf-notice--${notice.reason}`} role="status">
      <svg className="cf-notice__icon" viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
        <circle cx="10" cy="10" r="9" fill="none" stroke="currentColor" strokeWidth="1.6" />
        <rect x="9.1" y="8.5" width="1.8" height="6" rx="0.9" fill="currentColor" />
        <circle cx="10" cy="5.8" r="1.1" fill="currentColor" />
      </svg>
      <p className="cf-notice__text">{notice.text}</p>
      <span className="cf-notice__scope">Only you can see this</span>
    </div>
  );
}
