// @confab/chat-ui public surface (docs/STYLE.md, One index.ts per package): an explicit list, types
// with `export type`.

// The whole product
export { ConfabApp } from './app/ConfabApp';
export type { ConfabAppProps, ConfabAppRouting } from './app/ConfabApp';

// Provider and hooks
export { ConfabProvider } from './provider/ConfabProvider';
export type { ConfabProviderProps } from './provider/ConfabProvider';
export { ConfabRoot, confabRootClass } from './provider/ConfabRoot';
export type { ConfabRootProps, ConfabTheme } from './provider/ConfabRoot';
export type {
  ConfabUiClient,
  ConfabUiStore,
  ConfabUiChats,
  ConfabUiMessages,
  ConfabUiRealtime,
  ConfabUiInvitations,
  ConfabUiAccount,
  ConfabUiFiles,
  ConfabUiAgents,
  ConfabUiDrops,
  ConfabUiPresence,
  ConfabUiNotifications,
} from './provider/clientInterface';
export { useConfabClient, useConfabStore, useNavigate } from './provider/hooks';
export { useComponents, defaultComponents } from './provider/ComponentsContext';
export type { ComponentsInEffect, ConfabComponents, SharedComponentName } from './provider/ComponentsContext';
export type { NavigateFunction, NavigateOptions } from './provider/types';

// Headless hooks (bring your own UI)
export { useChatList, useChat, useAgentSearch, useDropsFeed } from './hooks';
export type { ChatListState, ChatState, AgentSearchOptions, AgentSearchState, DropsFeedView } from './hooks';

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
export { AppShell, ChatHome, EmptyChatState } from './screens/AppShell/AppShell';
export type { AppShellProps } from './screens/AppShell/AppShell';
export { ChatPage } from './screens/ChatPage/ChatPage';
export type { ChatPageProps } from './screens/ChatPage/ChatPage';
export { useTitleFlash, newMessagesTitle } from './screens/ChatPage/useTitleFlash';
export type { TitleFlashOptions } from './screens/ChatPage/useTitleFlash';
export { CreateChatScreen } from './screens/CreateChatScreen/CreateChatScreen';
export type { CreateChatScreenProps, FirstMessageState } from './screens/CreateChatScreen/CreateChatScreen';
export { ChatOptionsScreen } from './screens/ChatOptionsScreen/ChatOptionsScreen';
export type { ChatOptionsScreenProps } from './screens/ChatOptionsScreen/ChatOptionsScreen';
export { JoinScreen, joinLoginPath, JOIN_CURRENT_USER_DELAY_MS, JOIN_REDIRECT_DELAY_MS } from './screens/JoinScreen/JoinScreen';
export type { JoinScreenProps, JoinState } from './screens/JoinScreen/JoinScreen';
export { InviteUserScreen, INVITE_REDIRECT_DELAY_MS } from './screens/InviteUserScreen/InviteUserScreen';
export type { InviteUserScreenProps } from './screens/InviteUserScreen/InviteUserScreen';
export { ShareLinkSection, COPY_CONFIRMATION_MS } from './screens/InviteUserScreen/ShareLinkSection';
export type { ShareLinkSectionProps } from './screens/InviteUserScreen/ShareLinkSection';
export { ProfileScreen, apiKeyState, DEFAULT_PUBLIC_MAIL_DOMAIN } from './screens/ProfileScreen/ProfileScreen';
export type { ProfileScreenProps } from './screens/ProfileScreen/ProfileScreen';
export {
  CompleteAccountPage,
  COMPLETE_ACCOUNT_REDIRECT_DELAY_MS,
  TEMPORARY_EMAIL_DOMAIN,
  isTemporaryEmail,
} from './screens/CompleteAccountPage/CompleteAccountPage';
export { CompleteSignupPage } from './screens/CompleteSignupPage/CompleteSignupPage';
export type { CompleteSignupPageProps } from './screens/CompleteSignupPage/CompleteSignupPage';
export { MyAgentsScreen } from './screens/MyAgentsScreen/MyAgentsScreen';
export type { MyAgentsScreenProps } from './screens/MyAgentsScreen/MyAgentsScreen';
export { AgentKeyNotice } from './screens/MyAgentsScreen/AgentKeyNotice';
export type { AgentKeyNoticeProps } from './screens/MyAgentsScreen/AgentKeyNotice';
export { quickstartSteps, quickstartAgentUsername, cliTarballUrl } from './screens/MyAgentsScreen/quickstart';
export type { QuickstartInput, QuickstartStep } from './screens/MyAgentsScreen/quickstart';
export { ConfabAgentsScreen } from './screens/ConfabAgentsScreen/ConfabAgentsScreen';
export type { ConfabAgentsScreenProps } from './screens/ConfabAgentsScreen/ConfabAgentsScreen';

export { DropsFeedScreen, feedStatusLine } from './screens/DropsFeedScreen/DropsFeedScreen';
export type { DropsFeedScreenProps } from './screens/DropsFeedScreen/DropsFeedScreen';
export { FeedTabs } from './screens/DropsFeedScreen/FeedTabs';
export type { FeedTabsProps } from './screens/DropsFeedScreen/FeedTabs';
export { DiscoverChats } from './screens/DropsFeedScreen/DiscoverChats';
export { DropScreen } from './screens/DropScreen/DropScreen';
export type { DropScreenProps } from './screens/DropScreen/DropScreen';
export { DropContent } from './screens/DropScreen/DropContent';
export type { DropContentProps } from './screens/DropScreen/DropContent';
export { ChatDropsScreen } from './screens/ChatDropsScreen/ChatDropsScreen';
export type { ChatDropsScreenProps } from './screens/ChatDropsScreen/ChatDropsScreen';

// Drop parts
export { DropCard, chatInitial } from './components/DropCard/DropCard';
export type { DropCardProps } from './components/DropCard/DropCard';
export { LikeButton, BookmarkButton } from './components/DropCard/DropReactions';
export type { DropReactionProps } from './components/DropCard/DropReactions';
export { CreateDropModal } from './components/CreateDropModal/CreateDropModal';
export { NotificationSettings } from './components/NotificationSettings/NotificationSettings';
export type { NotificationSettingsProps } from './components/NotificationSettings/NotificationSettings';
export type { CreateDropModalProps } from './components/CreateDropModal/CreateDropModal';
export { FollowButton } from './components/FollowButton/FollowButton';
export type { FollowButtonProps } from './components/FollowButton/FollowButton';
export { useDropsStore, feedTabPath, cardTags } from './internal/dropsClient';

// Chat parts
export { ChatHeader, connectionLabel } from './components/ChatHeader/ChatHeader';
export type { ChatHeaderPart, ChatHeaderProps } from './components/ChatHeader/ChatHeader';
export { MessageList } from './components/MessageList/MessageList';
export type { MessageListProps } from './components/MessageList/MessageList';
export { MessageListEmpty, agentSuggestions } from './components/MessageList/MessageListEmpty';
export type { MessageListEmptyProps } from './components/MessageList/MessageListEmpty';
export { Message, highlightText } from './components/Message/Message';
export type { MessageProps } from './components/Message/Message';
export { ReactionChips, reactionLabel } from './components/Reactions/ReactionChips';
export type { ReactionChipsProps } from './components/Reactions/ReactionChips';
export { ReactionPicker } from './components/Reactions/ReactionPicker';
export type { ReactionPickerProps } from './components/Reactions/ReactionPicker';
export { commonEmoji } from './components/Reactions/commonEmoji';
export type { EmojiChoice } from './components/Reactions/commonEmoji';
export { ReplyQuote, RepliesButton } from './components/ReplyQuote/ReplyQuote';
export type { ReplyQuoteProps, RepliesButtonProps } from './components/ReplyQuote/ReplyQuote';
export { ReplyBanner } from './components/ReplyBanner/ReplyBanner';
export type { ReplyBannerProps } from './components/ReplyBanner/ReplyBanner';
export { ThreadPanel } from './components/ThreadPanel/ThreadPanel';
export type { ThreadPanelProps } from './components/ThreadPanel/ThreadPanel';
export { SearchResultsCard, cutSnippet } from './components/SearchResultsCard/SearchResultsCard';
export type { SearchResultsCardProps } from './components/SearchResultsCard/SearchResultsCard';
export { ChartMessage, chartSummary, formatChartNumber } from './components/ChartMessage/ChartMessage';
export type { ChartMessageProps } from './components/ChartMessage/ChartMessage';
export { FileMessageCard } from './components/FileMessageCard/FileMessageCard';
export type { FileMessageCardProps } from './components/FileMessageCard/FileMessageCard';
export { SystemLine } from './components/SystemLine/SystemLine';
export type { SystemLineProps } from './components/SystemLine/SystemLine';
export { systemLineLabel } from './components/SystemLine/systemLineLabel';
export { MessageInput, mentionQueryAt } from './components/MessageInput/MessageInput';
export type { MessageInputProps } from './components/MessageInput/MessageInput';
export { UploadZone } from './components/MessageInput/UploadZone';
export type { UploadZoneProps } from './components/MessageInput/UploadZone';
export { AgentAutocomplete } from './components/MessageInput/AgentAutocomplete';
export type { AgentAutocompleteProps } from './components/MessageInput/AgentAutocomplete';
export { AgentSearchBox } from './components/AgentSearchBox/AgentSearchBox';
export type { AgentSearchBoxProps, PreselectedAgentState } from './components/AgentSearchBox/AgentSearchBox';
export { AgentStatusBar } from './components/AgentStatusBar/AgentStatusBar';
export type { AgentStatusBarProps } from './components/AgentStatusBar/AgentStatusBar';
export { TypingIndicator, typingText } from './components/TypingIndicator/TypingIndicator';
export type { TypingIndicatorProps } from './components/TypingIndicator/TypingIndicator';
export { PeopleStrip } from './components/PeopleStrip/PeopleStrip';
export type { PeopleStripPerson, PeopleStripProps } from './components/PeopleStrip/PeopleStrip';
export { PresenceDot } from './components/PeopleStrip/PresenceDot';
export { AgentNotice } from './components/AgentNotice/AgentNotice';
export type { AgentNoticeProps } from './components/AgentNotice/AgentNotice';
export { ChatFilesPanel, filterFiles } from './components/ChatFilesPanel/ChatFilesPanel';
export type { ChatFilesPanelProps, FilesView } from './components/ChatFilesPanel/ChatFilesPanel';
export { PageHeader } from './components/PageHeader/PageHeader';
export type { PageHeaderProps } from './components/PageHeader/PageHeader';
export { SidebarToggle } from './components/PageHeader/SidebarToggle';
export type { SidebarToggleProps } from './components/PageHeader/SidebarToggle';
export { Sidebar } from './components/Sidebar/Sidebar';
export type { SidebarProps } from './components/Sidebar/Sidebar';
export { SidebarChatList } from './components/Sidebar/SidebarChatList';
export type { SidebarChatListProps } from './components/Sidebar/SidebarChatList';
export { SidebarUser } from './components/Sidebar/SidebarUser';
export type { SidebarUserProps } from './components/Sidebar/SidebarUser';
export { PendingInvitations } from './components/PendingInvitations/PendingInvitations';
export type { PendingInvitationsProps } from './components/PendingInvitations/PendingInvitations';
export { CompleteAccountBanner, BANNER_DISMISSED_KEY } from './components/CompleteAccountBanner/CompleteAccountBanner';

// Routing policy (docs/PRODUCT.md §2), router-agnostic
export { isPublicPath, safeRedirectPath } from './routing/paths';
export { usePrivateRoute } from './routing/usePrivateRoute';
export { browserNavigate, useBrowserLocation } from './routing/browserNavigate';
export type { BrowserLocation } from './routing/browserNavigate';
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
export { TextAreaField } from './components/TextAreaField/TextAreaField';
export type { TextAreaFieldProps } from './components/TextAreaField/TextAreaField';
export { Link } from './components/Link/Link';
export type { LinkProps } from './components/Link/Link';
export { Logo } from './components/Logo/Logo';
export type { LogoProps } from './components/Logo/Logo';
export { Spinner } from './components/Spinner/Spinner';
export type { SpinnerProps } from './components/Spinner/Spinner';
export { StatusMessage } from './components/StatusMessage/StatusMessage';
export type { StatusMessageProps, StatusMessageVariant } from './components/StatusMessage/StatusMessage';
