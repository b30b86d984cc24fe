/**
 * Notifications (docs/CONTRACTS.md, Notifications): the per-chat level, the person's e-mail
 * setting and the texts both sides spell. Types and constants only.
 */

/**
 * What of a chat notifies its person: every message ('all'), or only what mentions or replies to
 * them ('mentions', the default). A muted chat notifies of mentions only, whatever the level.
 */
export type NotifyLevel = 'all' | 'mentions';

export const notifyLevels = ['all', 'mentions'] as const satisfies readonly NotifyLevel[];

/** Body of `POST /api/chats/{id}/notifications`; the answer is the caller's ChatReadState. */
export interface NotifyLevelRequest {
  level: NotifyLevel;
}

/**
 * `GET /api/notifications/settings` and the answer of `POST /api/notifications/settings
 * {email_notifications}`: whether missed mentions and replies are mailed to the caller.
 */
export interface NotificationSettings {
  /** Mails about mentions and replies left unread (default on for people with a real address). */
  email_notifications: boolean;
  /** False for accounts without a mailbox (temporary accounts): the switch cannot be turned on. */
  email_available: boolean;
}

/** Body of `POST /api/notifications/settings`. */
export interface NotificationSettingsRequest {
  email_notifications: boolean;
}

/** How long a chat_activity preview may be, in characters (longer text ends with '…'). */
export const notificationPreviewLength = 140;

/** The refusals of the notification endpoints (PocketBase-style field errors). */
export const notificationRefusals = {
  level: { message: 'Failed to change the chat.', field: 'level', text: 'Must be "all" or "mentions".' },
  email: { message: 'Failed to change the notification settings.', field: 'email_notifications', text: 'Must be true or false.' },
  noMailbox: { message: 'Failed to change the notification settings.', field: 'email_notifications', text: 'This account has no e-mail address to write to.' },
} as const;
