import { createBrowserRouter, Navigate } from 'react-router';
import type { ConfabClient } from '@confab/client';
import { ChatHome, CompleteAccountPage, DropsFeedScreen, ForgotPasswordScreen } from '@confab/chat-ui';
import { AgentsRoute, ConfabAgentsRoute } from './routes/AgentRoutes';
import { ChatLayout, ChatOptionsRoute, ChatRoute, InviteUserRoute, NewChatRoute } from './routes/ChatRoutes';
import { CompleteSignupRoute } from './routes/CompleteSignupRoute';
import { ChatDropsRoute, DropRoute, DropsLayout } from './routes/DropRoutes';
import { HomeRoute } from './routes/HomeRoute';
import { JoinRoute } from './routes/JoinRoute';
import { LoginRoute } from './routes/LoginRoute';
import { ProfileRoute } from './routes/ProfileRoute';
import { RegisterRoute } from './routes/RegisterRoute';
import { ResetPasswordRoute } from './routes/ResetPasswordRoute';
import { RootLayout } from './routes/RootLayout';

/**
 * Spec §2 routes. Public: login, register, password reset, /join (and /join/:token),
 * /complete-signup and /complete-account (which shows content only to soft-registered users).
 * Screens not built yet fall through to '/' (which is the shell when signed in).
 */
export function createAppRouter(client: ConfabClient) {
  return createBrowserRouter([
    {
      element: <RootLayout client={client} />,
      children: [
        { index: true, element: <HomeRoute /> },
        { path: 'login', element: <LoginRoute /> },
        { path: 'register', element: <RegisterRoute /> },
        { path: 'forgot-password', element: <ForgotPasswordScreen /> },
        { path: 'reset-password', element: <ResetPasswordRoute /> },
        { path: 'join', element: <JoinRoute /> },
        { path: 'profile', element: <ProfileRoute /> },
        { path: 'agents', element: <AgentsRoute /> },
        { path: 'admin/confab-agents', element: <ConfabAgentsRoute /> },
        { path: 'complete-account', element: <CompleteAccountPage /> },
        { path: 'complete-signup', element: <CompleteSignupRoute /> },
        { path: 'join/:token', element: <JoinRoute /> },
        {
          path: 'drops',
          element: <DropsLayout />,
          // Static paths win over :slug, and no slug may equal one (reservedDropSlugs).
          children: [
            { index: true, element: <DropsFeedScreen tab="following" /> },
            { path: 'trending', element: <DropsFeedScreen tab="trending" /> },
            { path: 'discover', element: <DropsFeedScreen tab="discover" /> },
            { path: ':slug', element: <DropRoute /> },
          ],
        },
        {
          path: 'chat',
          element: <ChatLayout />,
          children: [
            { index: true, element: <ChatHome /> },
            { path: 'new', element: <NewChatRoute /> },
            { path: ':id', element: <ChatRoute /> },
            { path: ':id/options', element: <ChatOptionsRoute /> },
            { path: ':id/invite', element: <InviteUserRoute /> },
            { path: ':id/drops', element: <ChatDropsRoute /> },
            // Anything else under /chat: the shell's home.
            { path: '*', element: <ChatHome /> },
          ],
        },
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ]);
}
