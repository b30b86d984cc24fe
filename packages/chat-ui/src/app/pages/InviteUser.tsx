import { useParams } from '../router';
import { InviteUserScreen } from '../../screens/InviteUserScreen/InviteUserScreen';

/** /chat/:id/invite */
export default function Page() {
  const { id = '' } = useParams();
  return <InviteUserScreen chatId={id} />;
}
