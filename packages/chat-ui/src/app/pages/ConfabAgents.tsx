import { ConfabAgentsScreen } from '../../screens/ConfabAgentsScreen/ConfabAgentsScreen';

/** /admin/confab-agents (private): the screen itself tells non-admins it is for admins. */
export default function Page() {
  return <ConfabAgentsScreen backTo="/" />;
}
