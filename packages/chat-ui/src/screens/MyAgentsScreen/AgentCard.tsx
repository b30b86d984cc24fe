import { useState } from 'react';
import { deleteAgentErrorMessage, messages, updateAgentErrorMessage, type AgentView, type AgentWithKey } from '@confab/client';
import { AgentCardFrame } from '../../components/AgentCardFrame/AgentCardFrame';
import { Button } from '../../components/Button/Button';
import { agentsOf } from '../../internal/agentsClient';
import { useConfabClient, useNavigate } from '../../provider/hooks';
import { AvailabilitySelect } from './AvailabilitySelect';

export interface AgentCardProps {
  agent: AgentView;
  /** A new key after rotation (shown once by the screen). */
  onKey: (rotated: AgentWithKey) => void;
  /** Asks before deleting; default window.confirm with the docs/PRODUCT.md §8 text. */
  confirm?: ((question: string) => boolean) | undefined;
}

const defaultConfirm = (question: string) => window.confirm(question);

/** Asked before a new key replaces the old one (ours: docs/PRODUCT.md gives no text). */
export function rotateKeyConfirmation(username: string): string {
  return `Create a new API key for @${username}? The current key stops working at once, and the running agent disconnects.`;
}

/**
 * One developer agent on My Agents: online or offline (live from agent_presence), availability
 * (site-wide or dev room only), its dev room ('Dev room pending...' until the first connection,
 * then Open Dev Room), a new key, and delete after 'Are you sure you want to delete this agent?'.
 */
export function AgentCard({ agent, onKey, confirm = defaultConfirm }: AgentCardProps) {
  const client = useConfabClient();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'availability' | 'rotate' | 'delete' | null>(null);
  const online = agent.status === 'online' || agent.status === 'active';

  const run = async (kind: NonNullable<typeof busy>, action: () => Promise<void>, wording: (error: unknown) => string) => {
    setBusy(kind);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(wording(failure));
    } finally {
      setBusy(null);
    }
  };

  const setAvailability = (siteWide: boolean) =>
    void run('availability', async () => void (await agentsOf(client).update(agent.id, { siteWideAvailable: siteWide })), updateAgentErrorMessage);

  // A new key is a change to the agent, so a failure reads 'Failed to update agent: …'.
  const rotate = () => {
    if (!confirm(rotateKeyConfirmation(agent.username))) return;
    void run('rotate', async () => onKey(await agentsOf(client).rotateKey(agent.id)), updateAgentErrorMessage);
  };

  const remove = () => {
    if (!confirm(messages.deleteAgentConfirmation)) return;
    void run('delete', () => agentsOf(client).remove(agent.id), deleteAgentErrorMessage);
  };

  return (
    <AgentCardFrame
      agent={agent}
      badges={<span className={`cf-presence cf-presence--${online ? 'online' : 'offline'}`}>{online ? 'Online' : 'Offline'}</span>}
      error={error}
    >
      <AvailabilitySelect siteWide={agent.site_wide_available} disabled={busy !== null} onChange={setAvailability} />
      <div className="cf-agent-card__room">
        {agent.dev_room_id === '' ? (
          <p className="cf-agent-card__pending">
            {messages.devRoomPending} <span className="cf-field__hint">It opens when the agent first connects.</span>
          </p>
        ) : (
          <Button variant="secondary" onClick={() => navigate(`/chat/${encodeURIComponent(agent.dev_room_id)}`)}>
            Open Dev Room
          </Button>
        )}
      </div>
      <div className="cf-agent-card__actions">
        <Button variant="secondary" disabled={busy !== null} aria-busy={busy === 'rotate'} onClick={rotate}>
          {busy === 'rotate' ? 'Saving...' : 'New API key'}
        </Button>
        <Button variant="danger" disabled={busy !== null} aria-busy={busy === 'delete'} onClick={remove}>
          {busy === 'delete' ? 'Deleting...' : 'Delete'}
        </Button>
      </div>
    </AgentCardFrame>
  );
}
