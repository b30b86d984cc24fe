import { useEffect, useId, useState } from 'react';
import { constants, messages } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { StatusMessage } from '../../components/StatusMessage/StatusMessage';
import { copyToClipboard } from '../../internal/clipboard';

export interface AgentKeyNoticeProps {
  /** The agent's @username. */
  username: string;
  apiKey: string;
  /** 'created' after creation, 'rotated' after a new key replaced the old one. */
  reason: 'created' | 'rotated';
  /** Hides the key for good. */
  onDismiss: () => void;
  /** Defaults to navigator.clipboard.writeText. */
  copyText?: ((text: string) => Promise<void>) | undefined;
}

/**
 * An agent's API key, shown once (after creation or rotation), with Copy ('Copied!' for 3 s) and
 * the warning that it will not be shown again. The key lives only in this component's props: it
 * never enters the store, and a reload shows no key.
 */
export function AgentKeyNotice({ username, apiKey, reason, onDismiss, copyText = copyToClipboard }: AgentKeyNoticeProps) {
  const headingId = useId();
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(false), constants.copyConfirmationMs);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    setError(null);
    try {
      await copyText(apiKey);
      setCopied(true);
    } catch {
      setCopied(false);
      setError(messages.copyKeyFailed);
    }
  };

  return (
    <section className="cf-card cf-agent-key" aria-labelledby={headingId}>
      <h2 id={headingId}>API key for @{username}</h2>
      <p className="cf-agent-key__warning">
        <strong>{reason === 'rotated' ? 'The old key no longer works. ' : ''}</strong>
        {messages.agentKeyShownOnce}
      </p>
      {error !== null ? <Alert>{error}</Alert> : null}
      <FormField label="API key" name="api_key" readOnly value={apiKey} spellCheck={false} className="cf-agent-key__field" onFocus={(event) => event.target.select()} />
      <div className="cf-agent-key__actions">
        <Button onClick={copy}>Copy key</Button>
        <Button variant="secondary" onClick={onDismiss}>
          Done
        </Button>
      </div>
      {copied ? <StatusMessage>Copied!</StatusMessage> : null}
    </section>
  );
}
