import { useParams } from '../routing/engine';
import { ChatOptionsScreen } from '@confab/chat-ui';

/** /chat/:id/options */
export default function Page() {
  const { id = '' } = useParams();
  return <ChatOptionsScreen chatId={id} />;
}
