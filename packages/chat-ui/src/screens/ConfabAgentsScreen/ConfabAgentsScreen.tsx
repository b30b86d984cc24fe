import { useCallback, useEffect, useId, useState } from 'react';
import { deleteHostedAgentErrorMessage, messages, toConfabError, type AgentView, type ClientState } from '@confab/client';
import { AgentCardFrame } from '../../components/AgentCardFrame/AgentCardFrame';
import { AgentList } from '../../components/AgentList/AgentList';
import { Button } from '../../components/Button/Button';
import { PageHeader } from '../../components/PageHeader/PageHeader';
import { agentsOf } from '../../internal/agentsClient';
import { useConfabClient, useConfabStore } from '../../provider/hooks';
import { CreateHostedAgentForm } from './CreateHostedAgentForm';

export interface ConfabAgentsScreenProps {
  /** Where the back button goes; docs/PRODUCT.md §2: '/'. */
  backTo?: string | undefined;
  /** Asks before deleting; default window.confirm with the docs/PRODUCT.md §8 text. */
  confirm?: ((question: string) => boolean) | undefined;
}

type Load = { kind: 'loading' } | { kind: 'failed' } | { kind: 'forbidden' } | { kind: 'loaded'; agents: AgentView[] };

const selectIsAdmin = (state: ClientState) => state.user?.is_admin === true;
const selectSignedIn = (state: ClientState) => state.user !== null;
const defaultConfirm = (question: string) => window.confirm(question);

/**
 * /admin/confab-agents (docs/PRODUCT.md §2 Confab Agents Management): the hosted agents, create one
 * (display name required), delete one. Server admins only: anyone else (and a 403 from the server)
 * sees that the page is for admins.
 */
export function ConfabAgentsScreen({ backTo = '/', confirm = defaultConfirm }: ConfabAgentsScreenProps) {
  const isAdmin = useConfabStore(selectIsAdmin);
  const signedIn = useConfabStore(selectSignedIn);
  return (
    <section className="cf-page">
      <PageHeader title="Confab Agents Management" backTo={backTo} />
      <div className="cf-page__body cf-agents">
        {!signedIn ? null : isAdmin ? <HostedAgents confirm={confirm} /> : <AdminsOnly />}
      </div>
    </section>
  );
}

function AdminsOnly() {
  const headingId = useId();
  return (
    <section className="cf-card cf-admins-only" aria-labelledby={headingId}>
      <h2 id={headingId}>Admins only</h2>
      <p>{messages.adminsOnly}</p>
      <p className="cf-page__intro">
        Hosted Confab agents are managed by the server's admins: the first account of a server, and those added with{' '}
        <code>confab-server admin add</code>.
      </p>
    </section>
  );
}

function HostedAgents({ confirm }: { confirm: (question: string) => boolean }) {
  const client = useConfabClient();
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // The agent just created: confirmed above the list, which shows it.
  const [created, setCreated] = useState<AgentView | null>(null);

  useEffect(() => {
    let active = true;
    setLoad({ kind: 'loading' });
    agentsOf(client)
      .listHosted()
      .then(
        (agents) => active && setLoad({ kind: 'loaded', agents }),
        (error: unknown) => active && setLoad({ kind: toConfabError(error).status === 403 ? 'forbidden' : 'failed' }),
      );
    return () => {
      active = false;
    };
  }, [client, attempt]);

  const change = useCallback((update: (agents: AgentView[]) => AgentView[]) => {
    setLoad((current) => (current.kind === 'loaded' ? { kind: 'loaded', agents: update(current.agents) } : current));
  }, []);

  const onCreated = (agent: AgentView) => {
    setCreated(agent);
    if (load.kind === 'loaded') change((agents) => [...agents.filter((entry) => entry.id !== agent.id), agent]);
    // Not listed yet (still loading, or the load failed): load the list again, the new agent with it.
    else setAttempt((count) => count + 1);
  };

  if (load.kind === 'forbidden') return <AdminsOnly />;
  return (
    <>
      <CreateHostedAgentForm onCreated={onCreated} />
      {/* Always present, so the confirmation is announced when it appears. */}
      <div role="status" className="cf-agents__created">
        {created !== null ? <p className="cf-status cf-status--success">{createdText(created)}</p> : null}
      </div>
      <AgentList
        title="Hosted agents"
        loading={load.kind === 'loading'}
        failed={load.kind === 'failed'}
        onRetry={() => setAttempt((count) => count + 1)}
        empty={load.kind === 'loaded' && load.agents.length === 0}
        emptyText="No hosted agents yet."
      >
        {load.kind === 'loaded'
          ? load.agents.map((agent) => (
              <HostedAgentCard
                key={agent.id}
                agent={agent}
                confirm={confirm}
                onDeleted={() => {
                  change((agents) => agents.filter((entry) => entry.id !== agent.id));
                  setCreated((current) => (current?.id === agent.id ? null : current));
                }}
              />
            ))
          : null}
      </AgentList>
    </>
  );
}

/** The confirmation after creating a persona: its name, and how people call it. */
export function createdText(agent: Pick<AgentView, 'name' | 'username' | 'site_wide_available'>): string {
  const where = agent.site_wide_available ? 'in any chat that allows Confab agents' : 'in its dev room only';
  return `Created ${agent.name}. People mention it as @${agent.username} ${where}; it is in the list below.`;
}

function HostedAgentCard({ agent, confirm, onDeleted }: { agent: AgentView; confirm: (question: string) => boolean; onDeleted: () => void }) {
  const client = useConfabClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const remove = async () => {
    if (!confirm(messages.deleteAgentConfirmation)) return;
    setBusy(true);
    setError(null);
    try {
      await agentsOf(client).removeHosted(agent.id);
      onDeleted();
    } catch (failure) {
      setError(deleteHostedAgentErrorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <AgentCardFrame
      agent={agent}
      badges={
        <>
          <span className="cf-presence cf-presence--online">Active</span>
          {agent.site_wide_available ? null : <span className="cf-badge">Dev room only</span>}
        </>
      }
      error={error}
    >
      <div className="cf-agent-card__actions">
        <Button variant="danger" disabled={busy} aria-busy={busy} onClick={remove}>
          {busy ? 'Deleting...' : 'Delete'}
        </Button>
      </div>
    </AgentCardFrame>
  );
}
