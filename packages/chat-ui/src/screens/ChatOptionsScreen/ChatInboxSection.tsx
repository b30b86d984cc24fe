import type { ChatRecord } from '@confab/client';
import { FormField } from '../../components/FormField/FormField';
import { useMailDomain } from '../../internal/useMailDomain';

export interface ChatInboxSectionProps {
  chat: Pick<ChatRecord, 'email_address'>;
}

/** The chat's own mail address (docs/PRODUCT.md §1): mail to it arrives in the chat; @email sends from it. */
export function ChatInboxSection({ chat }: ChatInboxSectionProps) {
  const domain = useMailDomain();


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
