import { Suspense } from 'react';
import { Navigate, Outlet, Route, Routes } from 'react-router';
import type { DropsFeedScreenProps } from '@confab/chat-ui';
import { lazyPage } from './pageModules';
import { PageLoading } from './routes/PageLoading';

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
 * Spec §2 routes, each page loaded on first use (RootLayout's Suspense shows the app-start screen
 * meanwhile). Public: login, register, password reset, /join (and /join/:token), /complete-signup
 * and /complete-account (which shows content only to soft-registered users). Anything unknown goes
 * to '/' (which is the shell when signed in).
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route index element={<Home />} />
      <Route path="login" element={<Login />} />
      <Route path="register" element={<Register />} />
      <Route path="forgot-password" element={<ForgotPassword />} />
      <Route path="reset-password" element={<ResetPassword />} />
      <Route path="join" element={<Join />} />
      <Route path="join/:token" element={<Join />} />
      <Route path="profile" element={<Profile />} />
      <Route path="agents" element={<Agents />} />
      <Route path="admin/confab-agents" element={<ConfabAgents />} />
      <Route path="complete-account" element={<CompleteAccount />} />
      <Route path="complete-signup" element={<CompleteSignup />} />
      {/* Static paths win over :slug, and no slug may equal one (reservedDropSlugs). */}
      <Route path="drops" element={<DropsLayout />}>
        <Route element={<ShellOutlet />}>
          <Route index element={<DropsFeed tab="following" />} />
          <Route path="trending" element={<DropsFeed tab="trending" />} />
          <Route path="discover" element={<DropsFeed tab="discover" />} />
          <Route path=":slug" element={<Drop />} />
        </Route>
      </Route>
      <Route path="chat" element={<ChatLayout />}>
        <Route element={<ShellOutlet />}>
          <Route index element={<ChatHome />} />
          <Route path="new" element={<NewChat />} />
          <Route path=":id" element={<Chat />} />
          <Route path=":id/options" element={<ChatOptions />} />
          <Route path=":id/invite" element={<InviteUser />} />
          <Route path=":id/drops" element={<ChatDrops />} />
          {/* Anything else under /chat: the shell's home. */}
          <Route path="*" element={<ChatHome />} />
        </Route>
      </Route>
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}

/** Inside the shell, a page still loading shows a spinner in the main area; the sidebar stays. */
function ShellOutlet() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Outlet />
    </Suspense>
  );
}
