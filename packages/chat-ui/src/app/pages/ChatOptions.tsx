import { useParams } from '../router';
import { ChatOptionsScreen } from '../../screens/ChatOptionsScreen/ChatOptionsScreen';

/** /chat/:id/options */
export default function Page() {
  const { id = '' } = useParams();
  return <ChatOptionsScreen chatId={id} />;
}
