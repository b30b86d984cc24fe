// The public API of @confab/client. Hand-written on purpose: adding an export is a decision.

// Client
export { ConfabClient } from './client/ConfabClient';
export type { ConfabClientOptions, RealtimeClientOptions, RegisterInput } from './client/ConfabClient';
export { deriveConfigFromHost } from './client/config';

// The pocketbase SDK under client.pb: its client, record service, auth stores (ConfabClientOptions.authStore)
// and error, so an app needs no `pocketbase` import of its own to type or build them.
export { BaseAuthStore, LocalAuthStore, ClientResponseError, RecordService } from 'pocketbase';
export type {
  default as PocketBase,
  AuthRecord,
  RecordModel,
  ListResult,
  RecordAuthResponse,
  SendOptions,
  RecordOptions,
  RecordListOptions,
  RecordFullListOptions,
  OnStoreChangeFunc,
} from 'pocketbase';
// The names of the client's former record-API copy, kept so code written against them still builds.
export { MemoryAuthStore, ResponseError, authStorageKey } from './client/formerRecordApiNames';
export type { RecordApi, RecordCollection, AuthStore, AuthChangeListener, ListOptions, FullListOptions } from './client/formerRecordApiNames';

// Realtime (docs/PRODUCT.md §4, §7 realtime)
export { RealtimeConnection } from './realtime/RealtimeConnection';
export type {
  RealtimeState,
  RealtimeTimings,
  RealtimeOptions,
  RealtimeConnectionOptions,
  RealtimeEventMap,
  RealtimeEventType,
  OutgoingFrame,
} from './realtime/types';

// Chats and messages (docs/PRODUCT.md §7)
export { ChatsService } from './chats/ChatsService';
export type { ChatsServiceDependencies, CreateChatInput, ChatPatch } from './chats/ChatsService';
export { MessagesService } from './messages/MessagesService';
export type { MessagesOptions, MessagesServiceDependencies, MessageSendOptions } from './messages/MessagesService';
export { threadLoadFailedText, threadReplies } from './messages/threads';
export { replyExcerpt, replyPreviewOf } from './format/replyExcerpt';
export { mergeMessages } from './messages/mergeMessages';
export { messageFromRecord, messageFromWire, isAgentUser } from './messages/normalize';
export { applyReactionSummary, hasReacted, toggledSummary } from './messages/reactions';
export { validateReactionEmoji } from './validation/reactions';
export type { ReactionSummary, ReactionUser, ReactionsAnswer } from './protocol/reactions';

// Invitations and account
export { InvitationsService, chatIdFromLocation } from './invitations/InvitationsService';
export type {
  Invitation,
  InviteResult,
  PendingInvitation,
  ShareableAcceptResult,
  EmailAcceptInput,
  ShareLinkOptions,
  CreatedShareLink,
  UserSuggestion,
  InvitationsServiceDependencies,
} from './invitations/InvitationsService';
export { AccountService } from './account/AccountService';
export type { AccountServiceDependencies, ApiKeysInput } from './account/AccountService';

// Notifications (docs/CONTRACTS.md, Notifications)
export { NotificationsService, browserNotificationsStorageKey } from './notifications/NotificationsService';
export type { NotificationsServiceDependencies, BrowserNotificationPermission } from './notifications/NotificationsService';
export type { BrowserNotificationEnvironment, NotificationConstructor } from './notifications/browserEnvironment';
export type { NotifyLevel, NotificationSettings } from './protocol';

// Files
export { FilesService, fileTokenLifetimeMs, fileTokenRefreshMarginMs } from './files/FilesService';
export type { FilesServiceDependencies, UploadOptions, FileUrlOptions, RemoveManyResult } from './files/FilesService';
export { fileDisplayName, fileUploaderName } from './files/chatFile';
export type { ChatFile } from './files/chatFile';

// Agents
export { AgentsService } from './agents/AgentsService';
export type {
  AgentsServiceDependencies,
  AgentSearchOptions,
  CreateAgentInput,
  UpdateAgentInput,
  CreateHostedAgentInput,
  AgentWithKey,
} from './agents/AgentsService';
export { applyStreamDelta, streamPlaceholderId } from './agents/AgentActivity';
export type { AgentView, AgentSearchHit, AgentType, AgentStatus, AgentRef, AgentNoticeReason } from './protocol';

// Typing and presence
export { PresenceService } from './presence/PresenceService';
export type { PresenceOptions, PresenceServiceDependencies } from './presence/PresenceService';
export type { Typist, ChatPresenceAnswer } from './protocol';
export { typingLimits } from './protocol';

// Drops
export { DropsService } from './drops/DropsService';
export type { DropsServiceDependencies, DropsPageOptions, DropListKind } from './drops/DropsService';
export { createDropsStore, initialDropsState, initialFeedState } from './drops/dropsStore';
export type { DropsState, DropsStore, DropsFeedState, ChatDropsState, DropViewState, DiscoverChatsState, DiscoverChat, DropsChat } from './drops/dropsStore';
export type {
  WireDrop,
  DropListAnswer,
  ChatDropsAnswer,
  LikeAnswer,
  BookmarkAnswer,
  FollowAnswer,
  DiscoverChatsAnswer,
  DropNotificationsAnswer,
  DropPublishedFrame,
  ReplyPreview,
} from './protocol';
export { dropLimits, replyLimits } from './protocol';
export type { ThreadState } from './types';

// Errors
export { ConfabError, toConfabError, confabErrorFromResponse, serverUnreachableError } from './errors';
export type { ConfabErrorDetails, FieldError } from './errors';

// Validation (docs/PRODUCT.md §5)
export {
  isValidEmail,
  validateLogin,
  validateRegister,
  validateInvitationSignup,
  resolveDisplayName,
  validateShareableName,
  validateCompleteSignupLink,
  validateCompleteSignup,
  validateCompleteAccount,
  normalizeCompleteAccount,
  validateForgotPassword,
  validateNewPassword,
  validateResetToken,
} from './validation/account';
export type { CompleteAccountValues } from './validation/account';
export {
  validateMessage,
  validateDrop,
  normalizeDrop,
  validateChatCreation,
  validateAgentCreation,
  normalizeAgentInput,
  validateHostedAgentCreation,
  validateProfileUsername,
  validateApiKeys,
  classifyInviteInput,
  validateInviteInput,
  shouldSearchInviteSuggestions,
  shouldSearchAgents,
} from './validation/content';
export type { DropInput, AgentInput, InviteTarget } from './validation/content';
export { fileExtension, isAllowedUpload, isAudioFile, isImageExtension, validateUpload, uploadExtensions } from './validation/upload';

// Server-error mapping (docs/PRODUCT.md §8) and every exact text
export {
  failureMessage,
  loginErrorMessage,
  registerErrorMessage,
  completeAccountErrorMessage,
  forgotPasswordErrorMessage,
  resetPasswordErrorMessage,
  agentErrorDetail,
  createAgentErrorMessage,
  updateAgentErrorMessage,
  deleteAgentErrorMessage,
  createHostedAgentErrorMessage,
  deleteHostedAgentErrorMessage,
} from './validation/serverErrors';
export { messages } from './validation/messages';

// State
export { createConfabStore, initialClientState } from './store/createConfabStore';
export type { ClientState, ClientActions, ConfabStore, ConnectionState } from './store/createConfabStore';

// Record rules
export {
  isChatAdmin,
  resolveAgentPermissions,
  isTemporaryUsername,
  needsAccountCompletion,
  displayNameOf,
} from './records';

// Message rendering (docs/PRODUCT.md §1; src/render/ is maintained separately)
export { renderMessageContent, createMessageRenderer, parseSearchResults, parseChart, imageProxyPath, proxiedImageSrc, withImageProxyAccess } from './render';
export type { RenderedContent, MessageRenderer } from './render';
export type { ChartMessage } from './protocol/charts';
export { chartLimits } from './protocol/charts';
export type { MessageFile, SystemLine, SystemLineKind, SystemLinePerson } from './protocol/announcements';
export { systemLineKinds } from './protocol/announcements';

// Formatting
export { timeAgo } from './format/timeAgo';
export type { TimeAgoLocale, TimeAgoOptions } from './format/timeAgo';
export { avatarColor, agentAvatarColor, avatarPalette } from './format/avatarColor';
export { formatFileSize } from './format/fileSize';
export { systemLineText } from './format/systemLine';
export { markdownToPlainText } from './format/plainText';
export { notificationPreviewOf } from './format/notificationPreview';
export { countLabel } from './format/count';
export { mimeFromExtension, mimeTypes, defaultMimeType } from './format/mime';

// Constants (docs/PRODUCT.md §9)
export { constants } from './constants';
export type { FeedTab } from './constants';

// Records (docs/PRODUCT.md §3)
export type {
  BaseRecord,
  UserType,
  UserRecord,
  AgentPermissions,
  ChatRecord,
  MessageType,
  MessageRecord,
  NormalizedMessage,
  MessageStatus,
  ClientMessage,
  SearchResultItem,
  SearchResultsData,
  AgentRecord,
  AgentSearchResult,
  AgentStatusLine,
  AgentNotice,
  FileRecord,
  DropRecord,
  CreateDropInput,
  DropListResponse,
  ChatDropsResponse,
  ToggleLikeResponse,
  ToggleBookmarkResponse,
  InvitationRecord,
  ShareLinkResponse,
  ShareLinkJoinResponse,
  AppConfig,
} from './types';
