import { describe, expect, it } from 'vitest';
import { messages } from './messages';

/*
 * Every fixed text of docs/PRODUCT.md §5 and §8 (and the §4 texts the client shows), copied from
 * there. The test fails when a text in `messages` drifts from docs/PRODUCT.md.
 */
const specTexts = [
  'Please enter both username and password',
  'Please fill in all fields',
  'Passwords do not match',
  'Password must be at least 8 characters',
  'Please enter a username',
  'Password must be at least 6 characters long',
  'Please enter your name',
  'Invalid signup link. Please request a new invitation.',
  'All fields are required',
  'Please enter a valid email address',
  'Please enter your email address',
  'Please enter your new password in both fields',
  'User ID is required to create a chat',
  'No changes to save.',
  'Please enter at least one API key.',
  'User not authenticated',
  'Login failed. Please try again.',
  'Registration failed. Please try again.',
  'Invalid invitation link',
  'Invalid or expired invitation link',
  'Invalid or expired invitation',
  'Failed to accept invitation. The link may be invalid or expired.',
  'Failed to join chat. Please try again.',
  'Invalid redirect response',
  'Failed to process invitation. Please try again.',
  'Failed to complete signup. Please try again.',
  'Unable to Join Chat',
  'Welcome to the chat!',
  'Account completion failed. Please try again.',
  'Account updated! Please log in with your new credentials.',
  'User not found. Please check the username.',
  'Failed to invite user.',
  'Failed to send invitation',
  'Failed to invite user',
  'Failed to create share link',
  'Failed to copy link',
  'Failed to save changes.',
  'Failed to delete chat.',
  'Failed to save agent settings.',
  'Failed to save auto-routing settings.',
  'Failed to save auto-routing agent.',
  'Are you sure? You will lose all of the files associated with this chat. This action cannot be undone.',
  'Are you sure you want to delete this agent?',
  'Failed to load agents.',
  'No account found with that email address',
  'Failed to send password reset email. Please try again.',
  'Password reset email sent! Check your inbox and follow the instructions to reset your password.',
  'Invalid or expired reset token. Please request a new password reset.',
  'Failed to reset password. Please try again or request a new reset.',
  'Invalid or missing reset token. Please request a new password reset.',
  'Password reset successful! You can now log in with your new password.',
  'Username updated successfully!',
  'API keys saved successfully! They will be used for AI agent requests.',
  'Failed to fetch feed',
  'Failed to fetch trending drops',
  'Failed to fetch discovery drops',
  'Failed to fetch chat drops',
  'Failed to fetch drop',
  'Failed to toggle like',
  'Failed to toggle bookmark',
  'Failed to discover chats',
  'Failed to follow chat',
  'Failed to unfollow chat',
  'Failed to create drop',
  'Failed to fetch notifications',
  'Failed to load drops',
  'Failed to load drop',
  'Failed to load files. Please try again.',
  'Failed to download file',
  'Failed to play audio file',
  'Failed to delete file',
  'File not found or you do not have permission to delete it (you can only delete files you uploaded).',
  'Failed to delete files. Please try again.',
  'No files have been uploaded to this chat yet.',
  'No files match your search. Try a different query.',
  'No drops yet',
];

const fixedTexts = new Set(Object.values(messages).filter((value): value is string => typeof value === 'string'));

describe('messages', () => {
  it.each(specTexts)('holds %j verbatim', (text) => {
    expect(fixedTexts.has(text)).toBe(true);
  });

  it.each([
    [messages.createAgentFailed('boom'), 'Failed to create agent: boom'],
    [messages.updateAgentFailed('boom'), 'Failed to update agent: boom'],
    [messages.deleteAgentFailed('boom'), 'Failed to delete agent: boom'],
    [messages.createHostedAgentFailed('boom'), 'Failed to create hosted agent: boom'],
    [messages.deleteHostedAgentFailed('boom'), 'Failed to delete hosted agent: boom'],
    [messages.fileTooLarge('a.pdf'), 'File a.pdf is too large. Maximum size is 100MB.'],
    [
      messages.bulkDeletePartial(3, 2),
      'Deleted 3 files successfully. 2 files could not be deleted (you may not have permission to delete files uploaded by others).',
    ],
    // The same text, in agreement with a count of one.
    [
      messages.bulkDeletePartial(1, 1),
      'Deleted 1 file successfully. 1 file could not be deleted (you may not have permission to delete files uploaded by others).',
    ],
  ])('template gives %j', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});
