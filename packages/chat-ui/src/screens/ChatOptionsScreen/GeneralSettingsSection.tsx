import { useState, type FormEvent } from 'react';
import { messages, type ChatRecord } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { StatusMessage } from '../../components/StatusMessage/StatusMessage';
import { chatsOf } from '../../internal/chatClient';
import { useConfabClient } from '../../provider/hooks';

export interface GeneralSettingsSectionProps {
  chat: ChatRecord;
  disabled: boolean;
}

/** Name and description of the chat, saved together. */
export function GeneralSettingsSection({ chat, disabled }: GeneralSettingsSectionProps) {
  const client = useConfabClient();
  const [name, setName] = useState(chat.name);
  const [description, setDescription] = useState(chat.description ?? '');
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved' | 'error'>('idle');
  const saving = status === 'saving';

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (disabled || saving || name.trim() === '') return;
    setStatus('saving');
    try {
      await chatsOf(client).update(chat.id, { name: name.trim(), description: description.trim() });
      setStatus('saved');
    } catch {
      setStatus('error');
    }
  };

  return (
    <section className="cf-card cf-options__section" aria-labelledby="cf-options-general">
      <h2 id="cf-options-general">General settings</h2>
      <form className="cf-form" noValidate onSubmit={save}>
        {status === 'error' ? <Alert>{messages.saveChangesFailed}</Alert> : null}
        {status === 'saved' ? <StatusMessage>Changes saved.</StatusMessage> : null}
        <FormField label="Name" name="name" value={name} disabled={disabled || saving} onChange={(event) => setName(event.target.value)} />
        <FormField
          label="Description"
          name="description"
          value={description}
          disabled={disabled || saving}
          onChange={(event) => setDescription(event.target.value)}
        />
        <Button type="submit" disabled={disabled || saving || name.trim() === ''}>
          {saving ? 'Saving...' : 'Save Changes'}
        </Button>
      </form>
    </section>
  );
}
