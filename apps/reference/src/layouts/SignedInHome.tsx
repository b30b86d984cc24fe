import { AppShell } from '@confab/chat-ui';

/** '/' with a session: the shell with its 'Select a chat to get started' main area. */
export default function SignedInHome() {
  return <AppShell />;
}
