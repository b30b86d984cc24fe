import { constants } from '../constants';
import { countLabel } from '../format/count';

// Documents of docs/PRODUCT.md §5 plus the audio types the server also accepts (docs/CONTRACTS.md,
// Files).
const supportedFormats = [...constants.upload.allowedExtensions, ...constants.upload.audioExtensions].join(', ');

/**
 * Every user-facing text of docs/PRODUCT.md §4, §5 and §8 (the section numbers below), verbatim.
 * Entries marked "ours" cover rules stated there without a text; change such a text only together
 * with docs/PRODUCT.md.
 */
export const messages = {
  // §5 Login and Register
  loginFieldsRequired: 'Please enter both username and password',
  registerFieldsRequired: 'Please fill in all fields',
  passwordsDoNotMatch: 'Passwords do not match',
  passwordMinLength8: 'Password must be at least 8 characters',
  // §5 Invitation signup, complete-signup page
  usernameRequired: 'Please enter a username',
  passwordMinLength6: 'Password must be at least 6 characters long',
  shareableNameRequired: 'Please enter your name',
  invalidSignupLink: 'Invalid signup link. Please request a new invitation.',
  // §5 Complete-account
  allFieldsRequired: 'All fields are required',
  invalidEmail: 'Please enter a valid email address',
  // §5 Forgot password, set new password
  emailRequired: 'Please enter your email address',
  newPasswordBothFields: 'Please enter your new password in both fields',
  // §5 Messages, drops, chats, agents (ours: docs/PRODUCT.md gives no text)
  messageEmpty: 'Please enter a message',
  dropTitleRequired: 'Please enter a title',
  dropContentRequired: 'Please enter some content',
  dropTitleTooLong: `Title must be at most ${constants.drop.titleMaxLength} characters`,
  dropContentTooLong: `Content must be at most ${constants.drop.contentMaxLength} characters`,
  chatNameRequired: 'Please enter a chat name',
  agentNameRequired: 'Please enter an agent name',
  agentDisplayNameRequired: 'Please enter a display name',
  inviteInputRequired: 'Please enter an email address or username',
  // §5 Chat creation
  userIdRequiredForChat: 'User ID is required to create a chat',
  // §5 Upload
  supportedFormats,
  /** `added`: image types the operator allows besides (CONFAB_UPLOAD_EXTENSIONS), listed after the rest. */
  unsupportedFileFormat: (extension: string, added: readonly string[] = []) =>
    `Unsupported file format: ${extension}. Supported formats: ${[supportedFormats, ...added].join(', ')}`,
  fileTooLarge: (fileName: string) => `File ${fileName} is too large. Maximum size is 100MB.`,
  uploadFailed: (fileName: string, detail: string) => `Failed to upload ${fileName}: ${detail}`,
  // §5 Profile
  noChangesToSave: 'No changes to save.',
  apiKeyRequired: 'Please enter at least one API key.',
  // §8 Generic
  userNotAuthenticated: 'User not authenticated',
  // Ours: any request that got no answer the page could read (see serverUnreachableError).
  serverUnreachable: (baseUrl: string) => `Cannot reach the Confab server at ${baseUrl} — is this site's origin in CONFAB_ALLOWED_ORIGINS?`,
  // §8 Login, Register
  loginFailed: 'Login failed. Please try again.',
  registrationFailed: 'Registration failed. Please try again.',
  // §8 Invitation and join
  invalidInvitationLink: 'Invalid invitation link',
  invalidOrExpiredInvitationLink: 'Invalid or expired invitation link',
  invalidOrExpiredInvitation: 'Invalid or expired invitation',
  acceptInvitationFailed: 'Failed to accept invitation. The link may be invalid or expired.',
  joinChatFailed: 'Failed to join chat. Please try again.',
  invalidRedirectResponse: 'Invalid redirect response',
  processInvitationFailed: 'Failed to process invitation. Please try again.',
  completeSignupFailed: 'Failed to complete signup. Please try again.',
  unableToJoinChat: 'Unable to Join Chat',
  joinWelcome: 'Welcome to the chat!',
  // §8 Complete-account (and §4)
  accountCompletionFailed: 'Account completion failed. Please try again.',
  accountUpdatedLogInAgain: 'Account updated! Please log in with your new credentials.',
  // §8 Invite
  inviteUserNotFound: 'User not found. Please check the username.',
  inviteUserFailedPeriod: 'Failed to invite user.',
  sendInvitationFailed: 'Failed to send invitation',
  inviteUserFailed: 'Failed to invite user',
  createShareLinkFailed: 'Failed to create share link',
  copyLinkFailed: 'Failed to copy link',
  // §8 Chat options
  saveChangesFailed: 'Failed to save changes.',
  deleteChatFailed: 'Failed to delete chat.',
  saveAgentSettingsFailed: 'Failed to save agent settings.',
  saveAutoRoutingSettingsFailed: 'Failed to save auto-routing settings.',
  saveAutoRoutingAgentFailed: 'Failed to save auto-routing agent.',
  deleteChatConfirmation:
    'Are you sure? You will lose all of the files associated with this chat. This action cannot be undone.',
  // §8 Agents
  createAgentFailed: (detail: string) => `Failed to create agent: ${detail}`,
  updateAgentFailed: (detail: string) => `Failed to update agent: ${detail}`,
  deleteAgentFailed: (detail: string) => `Failed to delete agent: ${detail}`,
  deleteAgentConfirmation: 'Are you sure you want to delete this agent?',
  loadAgentsFailed: 'Failed to load agents.',
  createHostedAgentFailed: (detail: string) => `Failed to create hosted agent: ${detail}`,
  deleteHostedAgentFailed: (detail: string) => `Failed to delete hosted agent: ${detail}`,
  // §4 Agent dev room
  devRoomPending: 'Dev room pending...',
  // Agents (ours: docs/PRODUCT.md gives no text)
  agentKeyShownOnce: 'Copy this key now: it will not be shown again. Anyone with it can act as this agent.',
  copyKeyFailed: 'Failed to copy key',
  adminsOnly: 'This page is for admins.',
  noAgentsFoundHint: 'Try a name, a username, or a type such as "confab" or "developer".',
  // A bare @ in a chat whose settings allow no agent (ours)
  noAgentsInChat: 'No agents are available in this chat.',
  noAgentsInChatHint: 'A chat admin can allow Confab or developer agents in Chat Options.',
  // §8 Forgot password
  noAccountWithEmail: 'No account found with that email address',
  sendResetEmailFailed: 'Failed to send password reset email. Please try again.',
  resetEmailSent:
    'Password reset email sent! Check your inbox and follow the instructions to reset your password.',
  // §8 Reset
  invalidOrExpiredResetToken: 'Invalid or expired reset token. Please request a new password reset.',
  resetPasswordFailed: 'Failed to reset password. Please try again or request a new reset.',
  missingResetToken: 'Invalid or missing reset token. Please request a new password reset.',
  passwordResetSuccessful: 'Password reset successful! You can now log in with your new password.',
  // §8 Profile successes
  usernameUpdated: 'Username updated successfully!',
  apiKeysSaved: 'API keys saved successfully! They will be used for AI agent requests.',
  // §8 Drops client messages and screens
  fetchFeedFailed: 'Failed to fetch feed',
  fetchTrendingFailed: 'Failed to fetch trending drops',
  fetchDiscoveryFailed: 'Failed to fetch discovery drops',
  fetchChatDropsFailed: 'Failed to fetch chat drops',
  fetchDropFailed: 'Failed to fetch drop',
  toggleLikeFailed: 'Failed to toggle like',
  toggleBookmarkFailed: 'Failed to toggle bookmark',
  discoverChatsFailed: 'Failed to discover chats',
  followChatFailed: 'Failed to follow chat',
  unfollowChatFailed: 'Failed to unfollow chat',
  createDropFailed: 'Failed to create drop',
  fetchNotificationsFailed: 'Failed to fetch notifications',
  loadDropsFailed: 'Failed to load drops',
  loadDropFailed: 'Failed to load drop',
  dropNotFound: 'Drop not found',
  // Drops (ours: docs/PRODUCT.md gives no text)
  fetchBookmarksFailed: 'Failed to fetch bookmarks',
  deleteDropFailed: 'Failed to delete drop',
  deleteDropConfirmation: 'Are you sure you want to delete this drop? This cannot be undone.',
  dropAudienceNote: 'Anyone signed in on this server can read a drop, even one published from a private chat.',
  noFollowedDrops: 'No drops from chats you follow yet.',
  noFollowedDropsHint: 'Follow chats on Discover and their drops appear here.',
  noTrendingDrops: 'Nothing is trending yet.',
  noDiscoverDrops: 'No drops to discover right now.',
  noSavedDrops: 'No saved drops yet.',
  noSavedDropsHint: 'Bookmark a drop and it is kept here.',
  chatNotFoundForDrops: 'This chat does not exist, or it has no drops you can see.',
  // §8 Files
  loadFilesFailed: 'Failed to load files. Please try again.',
  downloadFileFailed: 'Failed to download file',
  playAudioFailed: 'Failed to play audio file',
  deleteFileFailed: 'Failed to delete file',
  deleteFileNotPermitted:
    'File not found or you do not have permission to delete it (you can only delete files you uploaded).',
  bulkDeletePartial: (deletedCount: number, failedCount: number) =>
    `Deleted ${countLabel(deletedCount, 'file')} successfully. ${countLabel(failedCount, 'file')} could not be deleted (you may not have permission to delete files uploaded by others).`,
  deleteFilesFailed: 'Failed to delete files. Please try again.',
  // §5 File deletion asks for confirmation (ours: docs/PRODUCT.md gives no text)
  deleteFileConfirmation: (fileName: string) => `Delete "${fileName}"? This cannot be undone.`,
  deleteFilesConfirmation: (count: number) => `Delete ${count} selected ${count === 1 ? 'file' : 'files'}? This cannot be undone.`,
  // §8 Empty states
  noFilesUploaded: 'No files have been uploaded to this chat yet.',
  noFilesMatch: 'No files match your search. Try a different query.',
  noAgentsFound: (query: string) => `No agents found for "${query}"`,
  noDropsYet: 'No drops yet',
  noDropsYetHint: "Say '@drops create a guide about our discussion' in the chat to make one.",
} as const;
