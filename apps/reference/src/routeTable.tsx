import { Suspense } from 'react';
import { Navigate, Outlet, Router, type RouteDefinition } from './routing/engine';
import type { DropsFeedScreenProps } from '@confab/chat-ui';
import { lazyPage } from './pageModules';
import { PageLoading } from './layouts/PageLoading';

const Home = lazyPage('home');
const Login = lazyPage('login');
const Register = lazyPage('register');
const ForgotPassword = lazyPage('forgotPassword');
const ResetPassword = lazyPage('resetPassword');
const Join = lazyPage('join');
const CompleteAccount = lazyPage('completeAccount');
const CompleteSignup = lazyPage('completeSignup');
const Profile = lazyPage('profile');
const Agents = lazyPage('agents');
const ConfabAgents = lazyPage('confabAgents');
const DropsLayout = lazyPage('dropsLayout');
const DropsFeed = lazyPage<Pick<DropsFeedScreenProps, 'tab'>>('dropsFeed');
const Drop = lazyPage('drop');
const ChatLayout = lazyPage('chatLayout');
const ChatHome = lazyPage('chatHome');
const NewChat = lazyPage('newChat');
const Chat = lazyPage('chat');
const ChatOptions = lazyPage('chatOptions');
const InviteUser = lazyPage('inviteUser');
const ChatDrops = lazyPage('chatDrops');

/**
 * docs/PRODUCT.md §2 routes, each page loaded on first use (RootLayout's Suspense shows the
 * app-start screen meanwhile). Public: login, register, password reset, /join (and /join/:token),
 * /complete-signup and /complete-account (which shows content only to soft-registered users).
 * Anything unknown goes to '/' (which is the shell when signed in).
 */
export function AppRoutes() {
  return <Router routes={routes} fallback={<Navigate to="/" replace />} />;
}

/** docs/PRODUCT.md §2 routes. Static paths come before `:param` ones (the router matches in order). */
const routes: RouteDefinition[] = [
  { index: true, element: <Home /> },
  { path: 'login', element: <Login /> },
  { path: 'register', element: <Register /> },
  { path: 'forgot-password', element: <ForgotPassword /> },
  { path: 'reset-password', element: <ResetPassword /> },
  { path: 'join', element: <Join /> },
  { path: 'join/:token', element: <Join /> },
  { path: 'profile', element: <Profile /> },
  { path: 'agents', element: <Agents /> },
  { path: 'admin/confab-agents', element: <ConfabAgents /> },
  { path: 'complete-account', element: <CompleteAccount /> },
  { path: 'complete-signup', element: <CompleteSignup /> },
  {
    // Static paths win over :slug, and no slug may equal one (reservedDropSlugs).
    path: 'drops',
    element: <DropsLayout />,
    children: [
      {
        element: <ShellOutlet />,
        children: [
          { index: true, element: <DropsFeed tab="following" /> },
          { path: 'trending', element: <DropsFeed tab="trending" /> },
          { path: 'discover', element: <DropsFeed tab="discover" /> },
          { path: ':slug', element: <Drop /> },
        ],
      },
    ],
  },
  {
    path: 'chat',
    element: <ChatLayout />,
    children: [
      {
        element: <ShellOutlet />,
        children: [
          { index: true, element: <ChatHome /> },
          { path: 'new', element: <NewChat /> },
          { path: ':id', element: <Chat /> },
          { path: ':id/options', element: <ChatOptions /> },
          { path: ':id/invite', element: <InviteUser /> },
          { path: ':id/drops', element: <ChatDrops /> },
          // Anything else under /chat: the shell's home.
          { path: '*', element: <ChatHome /> },
        ],
      },
    ],
  },
];

/** Inside the shell, a page still loading shows a spinner in the main area; the sidebar stays. */
function ShellOutlet() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Outlet />
    </Suspense>
  );
}
