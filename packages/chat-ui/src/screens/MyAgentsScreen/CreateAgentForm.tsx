import { useId, useState, type FormEvent } from 'react';
import { createAgentErrorMessage, validateAgentCreation, type AgentWithKey } from '@confab/client';
import { usernameFromName } from '@confab/client/rules';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { agentsOf } from '../../internal/agentsClient';
import { useConfabClient } from '../../provider/hooks';
import { AvailabilitySelect } from './AvailabilitySelect';

export interface CreateAgentFormProps {
  /** The new agent and its key (shown once by the screen). */
  onCreated: (created: AgentWithKey) => void;
}

/**
 * Create a developer agent (spec §5: name required; name and description trimmed): name,
 * optional username (derived from the name when empty), description and availability.
 */
export function CreateAgentForm({ onCreated }: CreateAgentFormProps) {
  const client = useConfabClient();
  const headingId = useId();
  const errorId = useId();
  const [name, setName] = useState('');
  const [username, setUsername] = useState('');
  const [description, setDescription] = useState('');
  const [siteWide, setSiteWide] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const suggested = name.trim() === '' ? null : usernameFromName(name);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const invalid = validateAgentCreation({ name, description });
    if (invalid !== null) {
      setError(invalid);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const created = await agentsOf(client).create({ name, description, username, siteWideAvailable: siteWide });
      setName('');
      setUsername('');
      setDescription('');
      setSiteWide(true);
      onCreated(created);
    } catch (failure) {
      setError(createAgentErrorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="cf-form cf-card" noValidate onSubmit={submit} aria-labelledby={headingId} aria-describedby={error !== null ? errorId : undefined}>
      <h2 id={headingId}>Create an agent</h2>
      {error !== null ? <Alert id={errorId}>{error}</Alert> : null}
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
      <Button type="submit" disabled={busy} aria-busy={busy}>
        {busy ? 'Creating...' : 'Create Agent'}
      </Button>
    </form>
  );
}
