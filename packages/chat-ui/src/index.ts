// @confab/chat-ui public surface (house style 4): an explicit list, types with `export type`.

// Provider and hooks
export { ConfabProvider } from './provider/ConfabProvider';
export type { ConfabProviderProps } from './provider/ConfabProvider';
export { useConfabClient, useConfabStore, useNavigate } from './provider/hooks';
export { useComponents, defaultComponents } from './provider/ComponentsContext';
export type { ConfabComponents } from './provider/ComponentsContext';
export type { NavigateFunction, NavigateOptions } from './provider/types';

// Screens
export { LandingPage } from './screens/LandingPage/LandingPage';
export type { LandingPageProps } from './screens/LandingPage/LandingPage';
export { GET_STARTED_PATH } from './screens/LandingPage/landingContent';
export { LoginScreen } from './screens/LoginScreen/LoginScreen';
export type { LoginScreenProps } from './screens/LoginScreen/LoginScreen';
export { RegisterScreen, REGISTER_REDIRECT_DELAY_MS } from './screens/RegisterScreen/RegisterScreen';
export type { RegisterScreenProps } from './screens/RegisterScreen/RegisterScreen';
export { ForgotPasswordScreen } from './screens/ForgotPasswordScreen/ForgotPasswordScreen';
export type { ForgotPasswordScreenProps } from './screens/ForgotPasswordScreen/ForgotPasswordScreen';
export { ResetPasswordScreen } from './screens/ResetPasswordScreen/ResetPasswordScreen';
export type { ResetPasswordScreenProps } from './screens/ResetPasswordScreen/ResetPasswordScreen';
export { SetNewPasswordForm, RESET_REDIRECT_DELAY_MS } from './screens/ResetPasswordScreen/SetNewPasswordForm';
export type { SetNewPasswordFormProps } from './screens/ResetPasswordScreen/SetNewPasswordForm';
export { InitializingScreen } from './screens/InitializingScreen/InitializingScreen';
export type { InitializingScreenProps } from './screens/InitializingScreen/InitializingScreen';
export { AppShell, EmptyChatState } from './screens/AppShell/AppShell';
export type { AppShellProps } from './screens/AppShell/AppShell';
export { Sidebar } from './screens/AppShell/Sidebar';
export type { SidebarProps } from './screens/AppShell/Sidebar';
export { SidebarChatList } from './screens/AppShell/SidebarChatList';
export type { SidebarChatListProps } from './screens/AppShell/SidebarChatList';
export { SidebarUser } from './screens/AppShell/SidebarUser';
export type { SidebarUserProps } from './screens/AppShell/SidebarUser';

// Routing policy (spec §2), router-agnostic
export { isPublicPath, safeRedirectPath } from './routing/paths';
export { usePrivateRoute } from './routing/usePrivateRoute';
export type { PrivateRouteDecision } from './routing/usePrivateRoute';

// Shared parts
export { Alert } from './components/Alert/Alert';
export type { AlertProps } from './components/Alert/Alert';
export { AuthLayout } from './components/AuthLayout/AuthLayout';
export type { AuthLayoutProps } from './components/AuthLayout/AuthLayout';
export { Button } from './components/Button/Button';
export type { ButtonProps, ButtonVariant } from './components/Button/Button';
export { FormField } from './components/FormField/FormField';
export type { FormFieldProps } from './components/FormField/FormField';
export { Link } from './components/Link/Link';
export type { LinkProps } from './components/Link/Link';
export { Logo } from './components/Logo/Logo';
export type { LogoProps } from './components/Logo/Logo';
export { Spinner } from './components/Spinner/Spinner';
export type { SpinnerProps } from './components/Spinner/Spinner';
export { StatusMessage } from './components/StatusMessage/StatusMessage';
export type { StatusMessageProps, StatusMessageVariant } from './components/StatusMessage/StatusMessage';
