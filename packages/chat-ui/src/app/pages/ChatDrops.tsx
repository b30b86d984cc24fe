import { useParams } from '../router';
import { ChatDropsScreen } from '../../screens/ChatDropsScreen/ChatDropsScreen';

/** /chat/:id/drops, inside the chat layout (the sidebar highlights the chat). */
export default function Page() {
  const { id = '' } = useParams();
  return <ChatDropsScreen chatId={id} />;
}
