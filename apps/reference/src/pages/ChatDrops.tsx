import { useParams } from '../routing/engine';
import { ChatDropsScreen } from '@confab/chat-ui';

/** /chat/:id/drops, inside the chat layout (the sidebar highlights the chat). */
export default function Page() {
  const { id = '' } = useParams();
  return <ChatDropsScreen chatId={id} />;
}
