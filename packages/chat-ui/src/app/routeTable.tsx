import { SignedInFrame } from './layouts/SignedInFrame';
import * as page from './pages';
import { isLazyPage } from './pages';
import { matchRoutes, Outlet, segmentsOf, type RouteDefinition } from './router';

/**
 * docs/PRODUCT.md §2 routes, as app paths (ConfabApp puts them under its base path). Static paths
 * come before `:param` ones (the router matches in order). Public: login, register, password
 * reset, /join (and /join/:token), /complete-signup and /complete-account (which shows content
 * only to soft-registered users). '/' and everything private sit in SignedInFrame, so the shell
 * stays mounted from page to page. Anything unknown goes to '/'.
 */
export const routes: RouteDefinition[] = [
  { path: 'login', element: <page.Login /> },
  { path: 'register', element: <page.Register /> },
  { path: 'forgot-password', element: <page.ForgotPassword /> },
  { path: 'reset-password', element: <page.ResetPassword /> },
  { path: 'join', element: <page.Join /> },
  { path: 'join/:token', element: <page.Join /> },
  { path: 'complete-account', element: <page.CompleteAccount /> },
  { path: 'complete-signup', element: <page.CompleteSignup /> },
  {
    element: <SignedInFrame />,
    children: [
      { index: true, element: <page.ChatHome /> },
      { path: 'profile', element: <page.Profile /> },
      { path: 'agents', element: <page.Agents /> },
      { path: 'admin/confab-agents', element: <page.ConfabAgents /> },
      {
        // Static paths win over :slug, and no slug may equal one (reservedDropSlugs).
        path: 'drops',
        element: <Outlet />,
        children: [
          { index: true, element: <page.DropsFeed tab="following" /> },
          { path: 'trending', element: <page.DropsFeed tab="trending" /> },
          { path: 'discover', element: <page.DropsFeed tab="discover" /> },
          { path: 'bookmarks', element: <page.DropsFeed tab="bookmarks" /> },
          { path: ':slug', element: <page.Drop /> },
        ],
      },
      {
        path: 'chat',
        element: <Outlet />,
        children: [
          { index: true, element: <page.ChatHome /> },
          { path: 'new', element: <page.NewChat /> },
          { path: ':id', element: <page.Chat /> },
          { path: ':id/options', element: <page.ChatOptions /> },
          { path: ':id/invite', element: <page.InviteUser /> },
          { path: ':id/drops', element: <page.ChatDrops /> },
          // Anything else under /chat: the shell's home.
          { path: '*', element: <page.ChatHome /> },
        ],
      },
    ],
  },
];

/**
 * Starts loading the code of the pages the app path `to` renders (pointer over or focus on a link
 * to it), so it is usually there by the click. Unknown paths and loaded pages cost nothing. Settles
 * (never rejects) once every page of the route has loaded or failed to.
 */
export function prefetchRoute(to: string): Promise<void> {
  const pathname = to.split(/[?#]/, 1)[0] ?? '/';
  const match = matchRoutes(routes, segmentsOf(pathname));
  const loads: Promise<void>[] = [];
  for (const element of match?.chain ?? []) {
    if (element.type === SignedInFrame) loads.push(page.Shell.preload());
    if (isLazyPage(element.type)) loads.push(element.type.preload());
  }
  return Promise.all(loads).then(() => undefined);
}
