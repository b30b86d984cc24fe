import { useId, useState, type FormEvent } from 'react';
import { createHostedAgentErrorMessage, validateHostedAgentCreation, type AgentView } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { agentsOf } from '../../internal/agentsClient';
import { useConfabClient } from '../../provider/hooks';

export interface CreateHostedAgentFormProps {
  onCreated: (agent: AgentView) => void;
}

/**
 * Create a hosted Confab agent (spec §5: display name required): an LLM persona the server runs,
 * described by its description.
 */
export function CreateHostedAgentForm({ onCreated }: CreateHostedAgentFormProps) {
  const client = useConfabClient();
  const headingId = useId();
  const errorId = useId();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [siteWide, setSiteWide] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const invalid = validateHostedAgentCreation({ displayName: name });
    if (invalid !== null) {
      setError(invalid);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const agent = await agentsOf(client).createHosted({ name, description, siteWideAvailable: siteWide });
      setName('');
      setDescription('');
      setSiteWide(true);
      onCreated(agent);
    } catch (failure) {
      setError(createHostedAgentErrorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="cf-form cf-card" noValidate onSubmit={submit} aria-labelledby={headingId} aria-describedby={error !== null ? errorId : undefined}>
      <h2 id={headingId}>Create a hosted agent</h2>
      {error !== null ? <Alert id={errorId}>{error}</Alert> : null}
      <FormField label="Display name" name="name" autoComplete="off" required value={name} disabled={busy} onChange={(event) => setName(event.target.value)} />
      <FormField
        label="Description"
        name="description"
        autoComplete="off"
        value={description}
        disabled={busy}
        hint="The agent's persona: what it does and how it answers."
        onChange={(event) => setDescription(event.target.value)}
      />
      <label className="cf-toggle">
        <input type="checkbox" checked={siteWide} disabled={busy} onChange={(event) => setSiteWide(event.target.checked)} />
        <span>Available site-wide</span>
      </label>
      <Button type="submit" disabled={busy} aria-busy={busy}>
        {busy ? 'Creating...' : 'Create Hosted Agent'}
      </Button>
    </form>
  );
}
