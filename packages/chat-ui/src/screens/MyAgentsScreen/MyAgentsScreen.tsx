import { useEffect, useState } from 'react';
import type { AgentWithKey, ClientState } from '@confab/client';
import { AgentList } from '../../components/AgentList/AgentList';
import { PageHeader } from '../../components/PageHeader/PageHeader';
import { agentsOf } from '../../internal/agentsClient';
import { useConfabClient, useConfabStore } from '../../provider/hooks';
import { AgentCard } from './AgentCard';
import { AgentKeyNotice } from './AgentKeyNotice';
import { AgentQuickstart } from './AgentQuickstart';
import { CreateAgentForm } from './CreateAgentForm';

export interface MyAgentsScreenProps {
  /** Where the back button goes; docs/PRODUCT.md §2: '/'. */
  backTo?: string | undefined;
  /** Asks before deleting or replacing a key; default window.confirm. */
  confirm?: ((question: string) => boolean) | undefined;
  /** Copies the API key; default navigator.clipboard.writeText. */
  copyText?: ((text: string) => Promise<void>) | undefined;
}

const selectAgents = (state: ClientState) => state.agents;
const selectLoading = (state: ClientState) => state.agentsLoading;
const selectError = (state: ClientState) => state.agentsError;
const selectUsername = (state: ClientState) => state.user?.username ?? '';

/** A key to show once: after creating an agent or giving it a new key. */
interface ShownKey {
  username: string;
  apiKey: string;
  reason: 'created' | 'rotated';
}

/**
 * /agents (docs/PRODUCT.md §2 My Agents): the user's developer agents (live online/offline),
 * create, the API key shown once, availability, a new key, delete, 'Dev room pending...' or Open
 * Dev Room, and a quickstart with this server's URL.
 */
export function MyAgentsScreen({ backTo = '/', confirm, copyText }: MyAgentsScreenProps) {
  const client = useConfabClient();
  const all = useConfabStore(selectAgents);
  const loading = useConfabStore(selectLoading);
  const error = useConfabStore(selectError);
  const username = useConfabStore(selectUsername);
  const [shownKey, setShownKey] = useState<ShownKey | null>(null);
  const [attempt, setAttempt] = useState(0);
  const agents = all.filter((agent) => agent.agent_type === 'developer-agent');

  useEffect(() => {
    if (username === '') return;
    agentsOf(client)
      .mine()
      .catch(() => {
        // agentsError in the store carries the failure; the screen shows it with Try again.
      });
  }, [client, username, attempt]);

  const show = (reason: ShownKey['reason']) => (result: AgentWithKey) => setShownKey({ username: result.agent.username, apiKey: result.api_key, reason });

  return (
    <section className="cf-page">
      <PageHeader title="My Agents" backTo={backTo} />
      <div className="cf-page__body cf-agents">
        <p className="cf-page__intro">
          Agents you build run on your own machine and answer when someone mentions them with @. Each one has an API key and a dev room where you
          can try it.
        </p>
        {shownKey !== null ? (
          <AgentKeyNotice
            key={shownKey.apiKey}
            username={shownKey.username}
            apiKey={shownKey.apiKey}
            reason={shownKey.reason}
            copyText={copyText}
            onDismiss={() => setShownKey(null)}
          />
        ) : null}
        <CreateAgentForm onCreated={show('created')} />
        <AgentList
          title="Your agents"
          loading={loading && agents.length === 0}
          failed={error !== null}
          onRetry={() => setAttempt((count) => count + 1)}
          empty={!loading && error === null && agents.length === 0}
          emptyText="You have no agents yet. Create one above."
        >
          {agents.map((agent) => (
            <AgentCard key={agent.id} agent={agent} onKey={show('rotated')} confirm={confirm} />
          ))}
        </AgentList>
        <AgentQuickstart serverUrl={client.baseUrl} username={username || 'you'} agentUsername={agents[0]?.username ?? null} copyText={copyText} />
      </div>
    </section>
  );
}
