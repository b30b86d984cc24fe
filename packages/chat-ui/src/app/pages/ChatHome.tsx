import { ChatHome } from '../../screens/AppShell/AppShell';

/** /chat and anything unknown under it: the shell's 'Select a chat to get started'. */
export default function Page() {
  return <ChatHome />;
}
