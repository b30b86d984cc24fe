import type { ReactNode } from 'react';
import { AppShell } from '../../screens/AppShell/AppShell';
import { useLocation, useParams } from '../router';

/**
 * The signed-in shell around every private page. It is one chunk of its own, so the landing and
 * sign-in pages do not carry the sidebar, the agent search and the chat list; once loaded it stays
 * mounted while the pages in its main area change.
 */
export default function Page({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  // Under /chat the route's :id (chat page, options …) is the chat the sidebar highlights; other
  // pages leave it to the store's current chat.
  const { id } = useParams();
  return <AppShell activeChatId={pathname.startsWith('/chat') ? (id ?? null) : undefined}>{children}</AppShell>;
}
