import { createBrowserRouter, Navigate } from 'react-router';
import type { ConfabClient } from '@confab/client';
import { AppShell, ForgotPasswordScreen } from '@confab/chat-ui';
import { HomeRoute } from './routes/HomeRoute';
import { LoginRoute } from './routes/LoginRoute';
import { PrivateRoute } from './routes/PrivateRoute';
import { RegisterRoute } from './routes/RegisterRoute';
import { ResetPasswordRoute } from './routes/ResetPasswordRoute';
import { RootLayout } from './routes/RootLayout';

/** Spec §2 routes. Screens not built yet fall through to '/' (which is the shell when signed in). */
export function createAppRouter(client: ConfabClient) {
  const shell = (
    <PrivateRoute>
      <AppShell />
    </PrivateRoute>
  );
  return createBrowserRouter([
    {
      element: <RootLayout client={client} />,
      children: [
        { index: true, element: <HomeRoute /> },
        { path: 'login', element: <LoginRoute /> },
        { path: 'register', element: <RegisterRoute /> },
        { path: 'forgot-password', element: <ForgotPasswordScreen /> },
        { path: 'reset-password', element: <ResetPasswordRoute /> },
        { path: 'chat', element: shell },
        { path: 'chat/*', element: shell },
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ]);
}
