import type { ReactNode } from 'react';
import { messages } from '@confab/client';
import { useComponents } from '../../provider/ComponentsContext';
import { Alert } from '../Alert/Alert';
import { Button } from '../Button/Button';

export interface AgentListProps {
  /** The heading, which also names the region, e.g. 'Your agents'. */
  title: string;
  /** Shows 'Loading agents...' (role="status"). */
  loading: boolean;
  /** Shows 'Failed to load agents.' as an alert with a Try again button. */
  failed: boolean;
  onRetry: () => void;
  /** Shows `emptyText` in place of cards. */
  empty: boolean;
  emptyText: string;
  /** The agent cards. */
  children?: ReactNode | undefined;
}

/** A list of agents on the agent pages: its heading, the loading note, the failure with Try again, the empty note, the cards. */
export function AgentList({ title, loading, failed, onRetry, empty, emptyText, children }: AgentListProps) {
  const { Spinner } = useComponents();
  return (
    <section className="cf-agents__list" aria-label={title}>
      <h2>{title}</h2>
      {loading ? (
        <p className="cf-agents__note" role="status">
          <Spinner size={18} /> Loading agents...
        </p>
      ) : null}
      {failed ? (
        <Alert>
          {messages.loadAgentsFailed}{' '}
          <Button variant="ghost" onClick={onRetry}>
            Try again
          </Button>
        </Alert>
      ) : null}
      {empty ? <p className="cf-agents__note">{emptyText}</p> : null}
      {children}
    </section>
  );
}
