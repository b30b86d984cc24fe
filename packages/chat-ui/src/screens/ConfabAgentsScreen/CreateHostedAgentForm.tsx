import { useState } from 'react';
import { createHostedAgentErrorMessage, validateHostedAgentCreation, type AgentView } from '@confab/client';
import { CardForm } from '../../components/CardForm/CardForm';
import { FormField } from '../../components/FormField/FormField';
import { TextAreaField } from '../../components/TextAreaField/TextAreaField';
import { agentsOf } from '../../internal/agentsClient';
import { useCreateSubmission } from '../../internal/useCreateSubmission';
import { useConfabClient } from '../../provider/hooks';

export interface CreateHostedAgentFormProps {
  onCreated: (agent: AgentView) => void;
}

/**
 * Create a hosted Confab agent (docs/PRODUCT.md §5: display name required): an LLM persona the
 * server runs, its description being its prompt (a text area of several lines).
 */
export function CreateHostedAgentForm({ onCreated }: CreateHostedAgentFormProps) {
  const client = useConfabClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [siteWide, setSiteWide] = useState(true);
  const { error, busy, submit } = useCreateSubmission({
    validate: () => validateHostedAgentCreation({ displayName: name }),
    create: () => agentsOf(client).createHosted({ name, description, siteWideAvailable: siteWide }),
    errorMessage: createHostedAgentErrorMessage,
    onCreated: (agent) => {
      setName('');
      setDescription('');
      setSiteWide(true);
      onCreated(agent);
    },
  });

  return (
    <CardForm title="Create a hosted agent" submitLabel="Create Hosted Agent" busyLabel="Creating..." busy={busy} error={error} onSubmit={submit}>
      <FormField label="Display name" name="name" autoComplete="off" required value={name} disabled={busy} onChange={(event) => setName(event.target.value)} />
      {/* The description is the persona's prompt: several lines, as prompts are written. */}
      <TextAreaField
        label="Description"
        name="description"
        value={description}
        disabled={busy}
        rows={6}
        hint="The agent's prompt: who it is, what it does and how it answers. Several lines are fine."
        onChange={(event) => setDescription(event.target.value)}
      />
      <label className="cf-toggle">
        <input type="checkbox" checked={siteWide} disabled={busy} onChange={(event) => setSiteWide(event.target.checked)} />
        <span>Available site-wide</span>
      </label>
    </CardForm>
  );
}
