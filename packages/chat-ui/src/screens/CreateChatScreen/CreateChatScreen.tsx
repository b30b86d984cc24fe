import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { toConfabError, validateChatCreation, type AgentSearchHit, type ClientState } from '@confab/client';
import { AgentSearchBox } from '../../components/AgentSearchBox/AgentSearchBox';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { PageHeader } from '../../components/PageHeader/PageHeader';
import { agentTypeLabel, firstMessageFor } from '../../internal/agentsClient';
import { chatsOf } from '../../internal/chatClient';
import { failed, idle, submitting, type FormStatus } from '../../internal/formStatus';
import { useConfabClient, useConfabStore, useNavigate } from '../../provider/hooks';

export interface CreateChatScreenProps {
  /** Back target of the header; docs/PRODUCT.md §2: the new-chat screen goes back to '/'. */
  backTo?: string | undefined;
  /**
   * The agent chosen in the agent search (navigation state `preselectedAgent`, docs/PRODUCT.md §2):
   * the new chat starts with a first message to it (docs/PRODUCT.md §7).
   */
  preselectedAgent?: AgentSearchHit | null | undefined;
}

/** The navigation state /chat/{id} reads after a chat started with an agent: the message to send first. */
export interface FirstMessageState {
  firstMessage: string;
}

const selectUserId = (state: ClientState) => state.user?.id ?? null;

/**
 * /chat/new (docs/PRODUCT.md §2 Create New Chat): a chat name, then the new chat opens. With an
 * agent chosen in the agent search, the name is suggested and a first message to the agent is
 * prefilled (docs/PRODUCT.md §7: '@drops create a summary drop about our recent discussion'; for
 * other agents `@username ` to finish); the chat opens and sends it. Developer agents are allowed
 * in that chat, since a new chat has them off (docs/PRODUCT.md §6) and the agent was asked for by
 * name.
 */
export function CreateChatScreen({ backTo = '/', preselectedAgent = null }: CreateChatScreenProps) {
  const client = useConfabClient();
  const navigate = useNavigate();
  const userId = useConfabStore(selectUserId);
  const errorId = useId();
  const agentHeadingId = useId();
  const [agent, setAgent] = useState<AgentSearchHit | null>(preselectedAgent);
  const [name, setName] = useState(preselectedAgent ? `Chat with ${preselectedAgent.name || preselectedAgent.username}` : '');
  const [firstMessage, setFirstMessage] = useState(preselectedAgent ? firstMessageFor(preselectedAgent) : '');
  const [status, setStatus] = useState<FormStatus>(idle);
  const busy = status.kind === 'submitting';

  // A new preselection (the host's navigation state changed) starts over with that agent; a new
  // object for the same agent does not.
  const applied = useRef(preselectedAgent?.id ?? null);
  useEffect(() => {
    if (preselectedAgent === null || preselectedAgent.id === applied.current) return;
    applied.current = preselectedAgent.id;
    choose(preselectedAgent);
  }, [preselectedAgent]);

  function choose(next: AgentSearchHit) {
    setAgent(next);
    setName(`Chat with ${next.name || next.username}`);
    setFirstMessage(firstMessageFor(next));
    setStatus(idle);
  }

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const invalid = validateChatCreation({ name, userId });
    if (invalid !== null) {
      setStatus(failed(invalid));
      return;
    }
    setStatus(submitting);
    try {
      const chat = await chatsOf(client).create({ name: name.trim() });
      const path = `/chat/${encodeURIComponent(chat.id)}`;
      if (agent === null) {
        navigate(path);
        return;
      }
      if (agent.agent_type === 'developer-agent') {
        // Best effort: without it the chat still opens, and the router's notice says what to do.
        await chatsOf(client)
          .setAgentPermissions(chat.id, { confab_agents: true, developer_agents: true })
          .catch(() => undefined);
      }
      const message = firstMessage.trim();
      // A bare '@username' asks nothing: the chat opens with it in mind but sends nothing.
      if (message === '' || message === `@${agent.username}`) navigate(path);
      else navigate(path, { state: { firstMessage: message } satisfies FirstMessageState });
    } catch (error) {
      const failure = toConfabError(error);
      setStatus(failed(failure.message || 'Failed to create chat.'));
    }
  };

  return (
    <div className="cf-page">
      <PageHeader title="Create New Chat" backTo={backTo} />
      <div className="cf-page__body">
        <form className="cf-form cf-card" noValidate onSubmit={handleSubmit} aria-describedby={status.kind === 'error' ? errorId : undefined}>
          {agent === null ? (
            <p className="cf-page__intro">Name the chat; you can invite people and agents once it exists.</p>
          ) : (
            <section className="cf-chosen-agent" aria-labelledby={agentHeadingId}>
              <h2 id={agentHeadingId} className="cf-chosen-agent__title">
                Chat with @{agent.username}
              </h2>
              <p className="cf-chosen-agent__who">
                {agent.name} <span className="cf-badge cf-badge--agent">{agentTypeLabel(agent.agent_type)}</span>
              </p>
              {agent.description.trim() !== '' ? <p className="cf-page__intro">{agent.description}</p> : null}
              <Button variant="ghost" disabled={busy} onClick={() => setAgent(null)}>
                Start without an agent
              </Button>
            </section>
          )}
          {status.kind === 'error' ? <Alert id={errorId}>{status.message}</Alert> : null}
          <FormField
            label="Chat name"
            name="name"
            autoComplete="off"
            required
            autoFocus
            value={name}
            disabled={busy}
            onChange={(event) => setName(event.target.value)}
          />
          {agent !== null ? (
            <FormField
              label="First message"
              name="first_message"
              autoComplete="off"
              value={firstMessage}
              disabled={busy}
              hint={`Sent to @${agent.username} when the chat opens.`}
              onChange={(event) => setFirstMessage(event.target.value)}
            />
          ) : null}
          <Button type="submit" disabled={busy}>
            {busy ? 'Creating...' : 'Create Chat'}
          </Button>
        </form>
        {agent === null ? <AgentSearchBox className="cf-card" title="Or start with an agent" onChat={choose} /> : null}
      </div>
    </div>
  );
}
