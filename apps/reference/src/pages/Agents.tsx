import { AppShell, MyAgentsScreen } from '@confab/chat-ui';
import { PrivateRoute } from '../layouts/PrivateRoute';

/** /agents (private): My Agents inside the signed-in shell; back goes to '/'. */
export default function Page() {
  return (
    <PrivateRoute>
      <AppShell>
        <MyAgentsScreen backTo="/" />
      </AppShell>
    </PrivateRoute>
  );
}
