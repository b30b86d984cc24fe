import { useState } from 'react';
import { createAgentErrorMessage, validateAgentCreation, type AgentWithKey } from '@confab/client';
import { usernameFromName } from '@confab/client/rules';
import { CardForm } from '../../components/CardForm/CardForm';
import { FormField } from '../../components/FormField/FormField';
import { agentsOf } from '../../internal/agentsClient';
import { useCreateSubmission } from '../../internal/useCreateSubmission';
import { useConfabClient } from '../../provider/hooks';
import { AvailabilitySelect } from './AvailabilitySelect';

export interface CreateAgentFormProps {
  /** The new agent and its key (shown once by the screen). */
  onCreated: (created: AgentWithKey) => void;
}

/**
 * Create a developer agent (docs/PRODUCT.md §5: name required; name and description trimmed): name,
 * optional username (derived from the name when empty), description and availability.
 */
export function CreateAgentForm({ onCreated }: CreateAgentFormProps) {
  const client = useConfabClient();
  const [name, setName] = useState('');
  const [username, setUsername] = useState('');
  const [description, setDescription] = useState('');
  const [siteWide, setSiteWide] = useState(true);
  const suggested = name.trim() === '' ? null : usernameFromName(name);
  const { error, busy, submit } = useCreateSubmission({
    validate: () => validateAgentCreation({ name, description }),
    create: () => agentsOf(client).create({ name, description, username, siteWideAvailable: siteWide }),
    errorMessage: createAgentErrorMessage,
    onCreated: (created) => {
      setName('');
      setUsername('');
      setDescription('');
      setSiteWide(true);
      onCreated(created);
    },
  });

  return (
    <CardForm title="Create an agent" submitLabel="Create Agent" busyLabel="Creating..." busy={busy} error={error} onSubmit={submit}>
      <FormField label="Name" name="name" autoComplete="off" required value={name} disabled={busy} onChange={(event) => setName(event.target.value)} />
      <FormField
        label="Username (optional)"
        name="username"
        autoComplete="off"
        value={username}
        disabled={busy}
        placeholder={suggested ?? 'my_agent'}
        hint={suggested === null ? 'People mention the agent as @username.' : `Leave empty for @${suggested}.`}
        onChange={(event) => setUsername(event.target.value)}
      />
      <FormField label="Description" name="description" autoComplete="off" value={description} disabled={busy} onChange={(event) => setDescription(event.target.value)} />
      <AvailabilitySelect siteWide={siteWide} disabled={busy} onChange={setSiteWide} />
    </CardForm>
  );
}
