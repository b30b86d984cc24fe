import { useEffect, useId, useState, type FormEvent } from 'react';
import { messages, resolveAgentPermissions, type ChatRecord } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { agentTypeLabel } from '../../internal/agentsClient';
import { chatsOf } from '../../internal/chatClient';
import { useConfabClient } from '../../provider/hooks';
import { useAutoRouteAgents } from './useAutoRouteAgents';

export interface AgentSettingsSectionProps {
  chat: ChatRecord;
  disabled: boolean;
}

/**
 * Agent permissions per chat (docs/PRODUCT.md §6) and auto-routing with its agent (docs/PRODUCT.md
 * §4), chosen from the agents this chat permits. Whether agents may ask @data and @deep about the
 * chat's files is the admin's choice too, off until they allow it (docs/SECURITY.md G12).
 */
export function AgentSettingsSection({ chat, disabled }: AgentSettingsSectionProps) {
  const client = useConfabClient();
  const hintId = useId();
  const filesHintId = useId();
  const selectId = useId();
  const saved = resolveAgentPermissions(chat);
  const [permissions, setPermissions] = useState(saved);
  const [autoRoute, setAutoRoute] = useState(chat.auto_route_enabled === true);
  const [agent, setAgent] = useState(chat.auto_route_agent ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const choices = useAutoRouteAgents(chat, permissions);
  const savedAgent = chat.auto_route_agent ?? '';
  // The saved agent stays choosable even when the chat no longer permits it (it is shown as such).
  const unlisted = agent !== '' && !choices.some((choice) => choice.username === agent);

  // Follow the server's copy when it changes (another admin, or our own save coming back).
  useEffect(() => setPermissions(resolveAgentPermissions(chat)), [chat]);
  useEffect(() => setAutoRoute(chat.auto_route_enabled === true), [chat.auto_route_enabled]);
  useEffect(() => setAgent(chat.auto_route_agent ?? ''), [chat.auto_route_agent]);

  const attempt = async (action: () => Promise<unknown>, failure: string, rollback: () => void) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch {
      rollback();
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const togglePermission = (key: 'confabAgents' | 'developerAgents' | 'agentsMayReadFiles') => {
    const previous = permissions;
    const next = { ...permissions, [key]: !permissions[key] };
    setPermissions(next);
    // The server reads the whole setting: every switch sends all three.
    const body = { confab_agents: next.confabAgents, developer_agents: next.developerAgents, agents_may_read_files: next.agentsMayReadFiles };
    void attempt(
      () => chatsOf(client).setAgentPermissions(chat.id, body),
      messages.saveAgentSettingsFailed,
      () => setPermissions(previous),
    );
  };

  const toggleAutoRoute = () => {
    const next = !autoRoute;
    setAutoRoute(next);
    void attempt(() => chatsOf(client).setAutoRouteEnabled(chat.id, next), messages.saveAutoRoutingSettingsFailed, () => setAutoRoute(!next));
  };

  const saveAgent = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const previous = chat.auto_route_agent ?? '';
    void attempt(() => chatsOf(client).setAutoRouteAgent(chat.id, agent), messages.saveAutoRoutingAgentFailed, () => setAgent(previous));
  };

  const locked = disabled || busy;
  return (
    <section className="cf-card cf-options__section" aria-labelledby="cf-options-agents">
      <h2 id="cf-options-agents">Agent settings</h2>
      {error ? <Alert>{error}</Alert> : null}
      <label className="cf-toggle">
        <input type="checkbox" role="switch" checked={permissions.confabAgents} disabled={locked} onChange={() => togglePermission('confabAgents')} />
        <span>Confab agents</span>
      </label>
      <label className="cf-toggle">
        <input type="checkbox" role="switch" checked={permissions.developerAgents} disabled={locked} onChange={() => togglePermission('developerAgents')} />
        <span>Developer agents</span>
      </label>
      <label className="cf-toggle">
        <input
          type="checkbox"
          role="switch"
          checked={permissions.agentsMayReadFiles}
          disabled={locked}
          aria-describedby={filesHintId}
          onChange={() => togglePermission('agentsMayReadFiles')}
        />
        <span>Agents may read files</span>
      </label>
      <p id={filesHintId} className="cf-field__hint">
        Lets agents ask @data and @deep about this chat&apos;s files. People can always ask them.
      </p>
      <label className="cf-toggle">
        <input type="checkbox" role="switch" checked={autoRoute} disabled={locked} aria-describedby={hintId} onChange={toggleAutoRoute} />
        <span>Auto-routing</span>
      </label>
      <p id={hintId} className="cf-field__hint">
        With auto-routing on, messages that mention no agent go to the agent below.
      </p>
      <form className="cf-form cf-options__inline" noValidate onSubmit={saveAgent}>
        <div className="cf-field">
          <label className="cf-field__label" htmlFor={selectId}>
            Auto-routing agent
          </label>
          <select
            id={selectId}
            name="auto_route_agent"
            className="cf-field__input cf-select"
            value={agent}
            disabled={locked || !autoRoute}
            onChange={(event) => setAgent(event.target.value)}
          >
            <option value="">Choose an agent</option>
            {unlisted ? <option value={agent}>@{agent}{agent === savedAgent ? ' (not offered in this chat)' : ''}</option> : null}
            {choices.map((choice) => (
              <option key={choice.username} value={choice.username}>
                @{choice.username} · {choice.name} ({agentTypeLabel(choice.agent_type)})
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="secondary" disabled={locked || !autoRoute}>
          Save Agent
        </Button>
      </form>
    </section>
  );
}
