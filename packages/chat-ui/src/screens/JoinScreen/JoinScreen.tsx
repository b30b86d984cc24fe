import { useEffect, useRef, useState, type ReactNode } from 'react';
import { constants, messages, toConfabError, type Invitation } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { AuthLayout } from '../../components/AuthLayout/AuthLayout';
import { Button } from '../../components/Button/Button';
import { StatusMessage } from '../../components/StatusMessage/StatusMessage';
import { useRedirectAfter } from '../../internal/useRedirectAfter';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabClient, useConfabStore, useNavigate } from '../../provider/hooks';
import { LazyBoundary, lazyPart } from '../../internal/lazyPart';
import { joinLoginPath } from './joinPaths';

export { joinLoginPath };

/** docs/PRODUCT.md §9: 1 s after a signed-in user joins by share link, 2 s after every other join. */
export const JOIN_CURRENT_USER_DELAY_MS = constants.redirectDelayMs.afterCurrentUserJoin;
export const JOIN_REDIRECT_DELAY_MS = constants.redirectDelayMs.afterJoin;

export interface JoinScreenProps {
  /** From /join/{token} or ?token=; missing or blank shows 'Invalid invitation link'. */
  token?: string | null | undefined;
}

/*
 * The two forms show only once the invitation has been read, for a visitor who is not signed in:
 * their code (with the form fields) loads meanwhile, so /join's first load stays small
 * (apps/reference/routeBudgets.json). Until it is here the processing screen stays.
 */
const LazyJoinNameForm = lazyPart(
  () => import('./JoinNameForm'),
  (module) => module.JoinNameForm,
);
const LazyJoinSignupForm = lazyPart(
  () => import('./JoinSignupForm'),
  (module) => module.JoinSignupForm,
);

export type JoinState =
  | { kind: 'processing' }
  | { kind: 'error'; message: string }
  | { kind: 'success'; chatId: string; delayMs: number; warning?: string | undefined }
  | { kind: 'login'; invitation: Invitation }
  | { kind: 'name'; invitation: Invitation }
  | { kind: 'signup'; invitation: Invitation };


/**
 * Join a chat from an invitation or share link (docs/PRODUCT.md §4 Invitation flow): processing,
 * then the join as the signed-in user, the name-only form (share link), the complete-signup form
 * (new invited person), a login prompt (invited person with an account), an error or success.
 */
export function JoinScreen({ token }: JoinScreenProps) {
  const client = useConfabClient();
  const navigate = useNavigate();
  const isAuthenticated = useConfabStore((state) => state.isAuthenticated);
  const trimmedToken = token?.trim() ?? '';
  const [state, setState] = useState<JoinState>(trimmedToken === '' ? { kind: 'error', message: messages.invalidInvitationLink } : { kind: 'processing' });
  // One run per token, also under React strict mode: an accept must never be sent twice.
  const startedFor = useRef<string | null>(null);
  const signedInAtStart = useRef(isAuthenticated);

  useEffect(() => {
    if (trimmedToken === '' || startedFor.current === trimmedToken) return;
    startedFor.current = trimmedToken;
    const signedIn = signedInAtStart.current;
    if (!signedIn) {
      void LazyJoinNameForm.preload();
      void LazyJoinSignupForm.preload();
    }
    void (async () => {
      let invitation: Invitation | null;
      try {
        invitation = await client.invitations.get(trimmedToken);
      } catch {
        setState({ kind: 'error', message: messages.processInvitationFailed });
        return;
      }
      if (invitation === null) {
        setState({ kind: 'error', message: messages.invalidOrExpiredInvitationLink });
        return;
      }
      const shareable = invitation.link_type === 'shareable';
      if (signedIn) {
        try {
          const { chatId } = await client.invitations.acceptAsCurrentUser(trimmedToken, invitation.chat_id);
          setState({ kind: 'success', chatId, delayMs: shareable ? JOIN_CURRENT_USER_DELAY_MS : JOIN_REDIRECT_DELAY_MS });
        } catch (error) {
          const failure = toConfabError(error);
          const fallback = shareable ? messages.joinChatFailed : messages.acceptInvitationFailed;
          setState({ kind: 'error', message: failure.message === messages.invalidRedirectResponse ? failure.message : fallback });
        }
        return;
      }
      if (shareable) setState({ kind: 'name', invitation });
      else if (invitation.user_exists) setState({ kind: 'login', invitation });
      else setState({ kind: 'signup', invitation });
    })();
  }, [client, trimmedToken]);

  useEffect(() => {
    if (state.kind === 'login') navigate(joinLoginPath(trimmedToken), { replace: true });
  }, [state.kind, navigate, trimmedToken]);

  useRedirectAfter(state.kind === 'success', state.kind === 'success' ? `/chat/${state.chatId}` : '/', state.kind === 'success' ? state.delayMs : 0);

  const onJoined = (chatId: string, warning?: string) =>
    setState(warning === undefined ? { kind: 'success', chatId, delayMs: JOIN_REDIRECT_DELAY_MS } : { kind: 'success', chatId, delayMs: JOIN_REDIRECT_DELAY_MS, warning });

  switch (state.kind) {
    case 'processing':
      return <JoinProcessing />;
    case 'error':
      return (
        <AuthLayout title={messages.unableToJoinChat}>
          <Alert>{state.message}</Alert>
          <Button fullWidth onClick={() => navigate('/login')}>
            Go to Login
          </Button>
        </AuthLayout>
      );
    case 'success':
      return (
        <AuthLayout title={messages.joinWelcome}>
          <StatusMessage>Taking you to the chat...</StatusMessage>
          {state.warning ? <StatusMessage variant="info">{state.warning}</StatusMessage> : null}
        </AuthLayout>
      );
    case 'login':
      return <JoinLoginPrompt token={trimmedToken} invitation={state.invitation} />;
    case 'name':
      return (
        <JoinFormPart>
          <LazyJoinNameForm.Component token={trimmedToken} invitation={state.invitation} onJoined={onJoined} />
        </JoinFormPart>
      );
    case 'signup':
      return (
        <JoinFormPart>
          <LazyJoinSignupForm.Component token={trimmedToken} invitation={state.invitation} onJoined={onJoined} />
        </JoinFormPart>
      );
  }
}

/** A join form: the processing screen while its code loads, a retry if it could not be loaded. */
function JoinFormPart({ children }: { children: ReactNode }) {
  return (
    <LazyBoundary
      fallback={<JoinProcessing />}
      failed={(retry) => (
        <AuthLayout title={messages.unableToJoinChat}>
          <Alert>This page could not be loaded. Check your connection and try again.</Alert>
          <Button fullWidth onClick={retry}>
            Try again
          </Button>
        </AuthLayout>
      )}
    >
      {children}
    </LazyBoundary>
  );
}

function JoinProcessing() {
  const { Spinner: SpinnerPart } = useComponents();
  return (
    <AuthLayout title="Joining Chat">
      <div role="status" className="cf-join__processing">
        <SpinnerPart />
        <span>Processing invitation...</span>
      </div>
    </AuthLayout>
  );
}

function JoinLoginPrompt({ token, invitation }: { token: string; invitation: Invitation }) {
  const { Link } = useComponents();
  return (
    <AuthLayout title="Sign in to join" description={`You have been invited to ${invitation.chat?.name ?? 'a chat'}.`}>
      <p>An account with this e-mail address already exists. Sign in to join the chat.</p>
      <Link to={joinLoginPath(token)}>Sign In</Link>
    </AuthLayout>
  );
}
