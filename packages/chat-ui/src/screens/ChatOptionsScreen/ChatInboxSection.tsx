import { useEffect, useState } from 'react';
import type { ChatRecord } from '@confab/client';
import { FormField } from '../../components/FormField/FormField';
import { useConfabClient } from '../../provider/hooks';
import { DEFAULT_PUBLIC_MAIL_DOMAIN } from '../ProfileScreen/ProfileScreen';

export interface ChatInboxSectionProps {
  chat: Pick<ChatRecord, 'email_address'>;
}

/** The chat's own mail address (spec §1): mail to it arrives in the chat; @email sends from it. */
export function ChatInboxSection({ chat }: ChatInboxSectionProps) {
  const client = useConfabClient();
  const [domain, setDomain] = useState(DEFAULT_PUBLIC_MAIL_DOMAIN);

  useEffect(() => {
    let active = true;
    client.loadConfig().then(
      (config) => {
        if (!active) return;
        // As on My Profile: the server's mail domain, else its host without a port.
        const served = config.mail_domain ?? config.public_domain.trim().replace(/:\d+$/, '');
        if (served !== '') setDomain(served);
      },
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [client]);

  const local = chat.email_address ?? '';
  if (local === '') return null;
  return (
    <section className="cf-card cf-options__section" aria-labelledby="cf-options-inbox">
      <h2 id="cf-options-inbox">Chat inbox</h2>
      <FormField
        label="Chat inbox address"
        name="chat-inbox"
        readOnly
        value={`${local}@${domain}`}
        hint="Mail sent to this address arrives in this chat; @email sends from it."
      />
    </section>
  );
}
