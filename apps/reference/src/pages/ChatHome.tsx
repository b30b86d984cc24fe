import { ChatHome } from '@confab/chat-ui';

/** /chat and anything unknown under it: the shell's 'Select a chat to get started'. */
export default function Page() {
  return <ChatHome />;
}
