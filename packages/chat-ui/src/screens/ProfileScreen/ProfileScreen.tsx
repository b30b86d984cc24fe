import { useEffect, useState, type FormEvent } from 'react';
import { failureMessage, messages, toConfabError, validateApiKeys, validateProfileUsername, type UserRecord } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { FormField } from '../../components/FormField/FormField';
import { NotificationSettings } from '../../components/NotificationSettings/NotificationSettings';
import { PageHeader } from '../../components/PageHeader/PageHeader';
import { StatusMessage } from '../../components/StatusMessage/StatusMessage';
import { defaultMailDomain, useMailDomain } from '../../internal/useMailDomain';
import { useConfabClient, useConfabStore } from '../../provider/hooks';

/** The mail domain used when the server's config names none. */
/** Kept for hosts that imported it: the domain shown until the server's configuration answers. */
export const DEFAULT_PUBLIC_MAIL_DOMAIN = defaultMailDomain;

type Notice = { kind: 'none' } | { kind: 'busy' } | { kind: 'error'; message: string } | { kind: 'info'; message: string } | { kind: 'success'; message: string };
const none: Notice = { kind: 'none' };

export interface ProfileScreenProps {
  /** Where the back button goes; docs/PRODUCT.md §2: '/'. */
  backTo?: string | undefined;
}

/** Masked state of a stored key: the server's hint, or dots; 'Not set' without one. */
export function apiKeyState(user: UserRecord | null, provider: 'openai' | 'gemini'): string {
  const set = provider === 'openai' ? user?.openai_api_key_set : user?.gemini_api_key_set;
  const hint = provider === 'openai' ? user?.openai_api_key_hint : user?.gemini_api_key_hint;
  if (set !== true) return 'Not set';
  return `Set (${hint && hint.trim() !== '' ? hint : '••••••••'})`;
}

/** /profile: username, read-only e-mail, the personal inbox address and the AI-provider keys. */
export function ProfileScreen({ backTo = '/' }: ProfileScreenProps) {
  const client = useConfabClient();
  const user = useConfabStore((state) => state.user);
  const domain = useMailDomain();
  const [username, setUsername] = useState(user?.username ?? '');
  const [usernameNotice, setUsernameNotice] = useState<Notice>(none);
  const [openai, setOpenai] = useState('');
  const [gemini, setGemini] = useState('');
  const [keysNotice, setKeysNotice] = useState<Notice>(none);


  // The record arrives after the first render when the session is restored late.
  const currentUsername = user?.username ?? '';
  useEffect(() => setUsername(currentUsername), [currentUsername]);

  const saveUsername = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (usernameNotice.kind === 'busy') return;
    const invalid = validateProfileUsername({ currentUsername, username });
    if (invalid === messages.noChangesToSave) {
      setUsernameNotice({ kind: 'info', message: invalid });
      return;
    }
    if (invalid !== null) {
      setUsernameNotice({ kind: 'error', message: invalid });
      return;
    }
    setUsernameNotice({ kind: 'busy' });
    try {
      await client.account.updateUsername(username);
      setUsernameNotice({ kind: 'success', message: messages.usernameUpdated });
    } catch (error) {
      const failure = toConfabError(error);
      const field = failure.fieldErrors['username']?.message;
      setUsernameNotice({ kind: 'error', message: field ? `Username: ${field}` : failureMessage(failure, 'Failed to update username.') });
    }
  };

  const saveKeys = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (keysNotice.kind === 'busy') return;
    const invalid = validateApiKeys({ openaiApiKey: openai, geminiApiKey: gemini });
    if (invalid !== null) {
      setKeysNotice({ kind: 'error', message: invalid });
      return;
    }
    setKeysNotice({ kind: 'busy' });
    try {
      await client.account.saveApiKeys({ openai, gemini });
      setOpenai('');
      setGemini('');
      setKeysNotice({ kind: 'success', message: messages.apiKeysSaved });
    } catch (error) {
      setKeysNotice({ kind: 'error', message: failureMessage(error, 'Failed to save API keys.') });
    }
  };

  const inbox = currentUsername === '' ? '' : `${currentUsername}@${domain}`;

  return (
    <section className="cf-page">
      <PageHeader title="My Profile" backTo={backTo} />
      <div className="cf-page__body">
        <form className="cf-form cf-card" noValidate onSubmit={saveUsername} aria-label="Account">
          <h2>Account</h2>
          <NoticeView notice={usernameNotice} />
          <FormField label="Username" name="username" autoComplete="username" value={username} disabled={usernameNotice.kind === 'busy'} onChange={(event) => setUsername(event.target.value)} />
          <Button type="submit" disabled={usernameNotice.kind === 'busy'} aria-busy={usernameNotice.kind === 'busy'}>
            {usernameNotice.kind === 'busy' ? 'Saving...' : 'Save Username'}
          </Button>
          <FormField label="Email" name="email" type="email" readOnly value={user?.email ?? ''} hint="Your e-mail address cannot be changed here." />
          <FormField label="Personal inbox" name="inbox" readOnly value={inbox} hint="Mail sent to this address arrives in your personal inbox chat." />
        </form>
        <form className="cf-form cf-card" noValidate onSubmit={saveKeys} aria-label="API Keys">
          <h2>API Keys</h2>
          <p className="cf-page__intro">Your own keys are used for AI agent requests. They are stored encrypted and never shown again.</p>
          <NoticeView notice={keysNotice} />
          <FormField
            label="OpenAI API key"
            name="openaiApiKey"
            type="password"
            autoComplete="off"
            hint={apiKeyState(user, 'openai')}
            value={openai}
            disabled={keysNotice.kind === 'busy'}
            onChange={(event) => setOpenai(event.target.value)}
          />
          <FormField
            label="Gemini API key"
            name="geminiApiKey"
            type="password"
            autoComplete="off"
            hint={apiKeyState(user, 'gemini')}
            value={gemini}
            disabled={keysNotice.kind === 'busy'}
            onChange={(event) => setGemini(event.target.value)}
          />
          <Button type="submit" disabled={keysNotice.kind === 'busy'} aria-busy={keysNotice.kind === 'busy'}>
            {keysNotice.kind === 'busy' ? 'Saving...' : 'Save API Keys'}
          </Button>
          <p className="cf-page__intro">AI tokens used: {(user?.ai_tokens_used ?? 0).toLocaleString('en-US')}</p>
        </form>
        {/* Loaded once the session is known (it may be restored after the first render). */}
        {client.notifications && user ? <NotificationSettings key={user.id} notifications={client.notifications} /> : null}
      </div>
    </section>
  );
}

function NoticeView({ notice }: { notice: Notice }) {
  if (notice.kind === 'error') return <Alert>{notice.message}</Alert>;
  if (notice.kind === 'info') return <StatusMessage variant="info">{notice.message}</StatusMessage>;
  if (notice.kind === 'success') return <StatusMessage>{notice.message}</StatusMessage>;
  return null;
}
