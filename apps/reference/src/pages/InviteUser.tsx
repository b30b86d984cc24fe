import { useParams } from '../routing/engine';
import { InviteUserScreen } from '@confab/chat-ui';

/** /chat/:id/invite */
export default function Page() {
  const { id = '' } = useParams();
  return <InviteUserScreen chatId={id} />;
}
