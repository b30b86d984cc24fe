import { useLocation } from '../routing/engine';
import { CreateChatScreen } from '@confab/chat-ui';
import { preselectedAgentFrom } from '../layouts/navigationState';

/** /chat/new: navigation state may carry a preselectedAgent (docs/PRODUCT.md §2), from the agent search. */
export default function Page() {
  const location = useLocation();
  return <CreateChatScreen preselectedAgent={preselectedAgentFrom(location.state)} />;
}
