import { createBrowserRouter, Navigate } from 'react-router';
import type { ConfabClient } from '@confab/client';
import { ChatHome, CreateChatScreen, ForgotPasswordScreen } from '@confab/chat-ui';
import { ChatLayout, ChatOptionsRoute, ChatRoute } from './routes/ChatRoutes';
import { HomeRoute } from './routes/HomeRoute';
import { LoginRoute } from './routes/LoginRoute';
import { RegisterRoute } from './routes/RegisterRoute';
import { ResetPasswordRoute } from './routes/ResetPasswordRoute';
import { RootLayout } from './routes/RootLayout';

/** Spec §2 routes. Screens not built yet fall through to '/' (which is the shell when signed in). */
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
        {
          path: 'chat',
          element: <ChatLayout />,
          children: [
            { index: true, element: <ChatHome /> },
            { path: 'new', element: <CreateChatScreen /> },
            { path: ':id', element: <ChatRoute /> },
            { path: ':id/options', element: <ChatOptionsRoute /> },
            // Invite, drops and files screens arrive with later issues; until then the shell's home.
            { path: '*', element: <ChatHome /> },
          ],
        },
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ]);
}
