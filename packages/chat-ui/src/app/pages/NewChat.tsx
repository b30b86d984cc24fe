import { useLocation } from '../router';
import { CreateChatScreen } from '../../screens/CreateChatScreen/CreateChatScreen';
import { preselectedAgentFrom } from '../layouts/navigationState';

/** /chat/new: navigation state may carry a preselectedAgent (docs/PRODUCT.md §2), from the agent search. */
export default function Page() {
  const location = useLocation();
  return <CreateChatScreen preselectedAgent={preselectedAgentFrom(location.state)} />;
}
