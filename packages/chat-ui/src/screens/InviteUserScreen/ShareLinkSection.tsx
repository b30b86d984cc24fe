import { useEffect, useId, useState } from 'react';
import { constants, failureMessage, messages } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { StatusMessage } from '../../components/StatusMessage/StatusMessage';
import { useConfabClient } from '../../provider/hooks';

/** docs/PRODUCT.md §9: the copy confirmation clears after 3 s. */
export const COPY_CONFIRMATION_MS = constants.copyConfirmationMs;

export interface ShareLinkSectionProps {
  chatId: string;
  /** Defaults to navigator.clipboard.writeText. */
  copyText?: ((text: string) => Promise<void>) | undefined;
}

function defaultCopy(text: string): Promise<void> {
  if (typeof navigator === 'undefined' || navigator.clipboard === undefined) return Promise.reject(new Error('No clipboard'));
  return navigator.clipboard.writeText(text);
}

/** Share link: none → created (Copy Link, 'Copied!' for 3 s) → 'Create New Link' resets it. */
export function ShareLinkSection({ chatId, copyText = defaultCopy }: ShareLinkSectionProps) {
  const client = useConfabClient();
  const headingId = useId();
  const [url, setUrl] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const create = async () => {
    setCreating(true);
    setError(null);
    try {
      const link = await client.invitations.createShareLink(chatId);
      setUrl(link.share_url);
    } catch (failure) {
      setError(failureMessage(failure, messages.createShareLinkFailed));
    } finally {
      setCreating(false);
    }
  };

  const copy = async () => {
    if (url === null) return;
    setError(null);
    try {
      await copyText(url);
      setCopied(true);
    } catch {
      setCopied(false);
      setError(messages.copyLinkFailed);
    }
  };

  return (
    <section className="cf-card cf-share-link" aria-labelledby={headingId}>
      <h2 id={headingId}>Share Link</h2>
      <p className="cf-page__intro">
        Anyone with the link can join with just a name. It works for {constants.shareLink.expiresInHours} hours and{' '}
        {constants.shareLink.maxUses} uses; a new link replaces the old one.
      </p>
      {error !== null ? <Alert>{error}</Alert> : null}
      {url === null ? (
        <Button onClick={create} disabled={creating} aria-busy={creating}>
          {creating ? 'Creating...' : 'Create Share Link'}
        </Button>
      ) : (
        <div className="cf-stack">
          <FormField label="Share link" name="shareLink" readOnly value={url} onFocus={(event) => event.target.select()} />
          <div className="cf-share-link__actions">
            <Button onClick={copy}>Copy Link</Button>
            <Button
              variant="secondary"
              onClick={() => {
                setUrl(null);
                setCopied(false);
              }}
            >
              Create New Link
            </Button>
          </div>
          {copied ? <StatusMessage>Copied!</StatusMessage> : null}
        </div>
      )}
    </section>
  );
}
