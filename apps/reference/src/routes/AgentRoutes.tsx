import { AppShell, ConfabAgentsScreen, MyAgentsScreen } from '@confab/chat-ui';
import { PrivateRoute } from './PrivateRoute';

/** /agents (private): My Agents inside the signed-in shell; back goes to '/'. */
export function AgentsRoute() {
  return (
    <PrivateRoute>
      <AppShell>
        <MyAgentsScreen backTo="/" />
      </AppShell>
    </PrivateRoute>
  );
}

/** /admin/confab-agents (private): the screen itself tells non-admins it is for admins. */
export function ConfabAgentsRoute() {
  return (
    <PrivateRoute>
      <AppShell>
        <ConfabAgentsScreen backTo="/" />
      </AppShell>
    </PrivateRoute>
  );
}
