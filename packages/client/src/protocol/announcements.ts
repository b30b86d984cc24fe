/**
 * File messages and system lines (docs/CONTRACTS.md, File messages and system lines): messages
 * the server writes itself when a person uploads a file or when a chat's membership or settings
 * change. Their `content` is a plain English fallback ("shared sales.csv", "ann added bob") for
 * excerpts, search, notifications and clients that do not know them; clients that do render these
 * structured parts instead, never as markdown. Types and constants only.
 */

/** The file a file message announces (message_type 'file'). */
export interface MessageFile {
  file_id: string;
  /** The uploader's file name, for display (the file record's original_name). */
  name: string;
  /** The stored name (the file record's `file`): the last part of its download URL. */
  file: string;
  /** The mime type (the file record's mime_type). */
  type: string;
  /** Bytes. */
  size: number;
  /** The file was deleted since: the card says so and offers nothing to open. */
  deleted?: true;
}

/** What a system line tells (message_type 'system'). */
export const systemLineKinds = ['added', 'removed', 'joined_via_link', 'joined_via_invitation', 'left', 'renamed'] as const;
export type SystemLineKind = (typeof systemLineKinds)[number];

/** A person (or an agent added by a person) named by a system line, as they were named then. */
export interface SystemLinePerson {
  id: string;
  name: string;
}

/**
 * A membership or settings change of a chat (message_type 'system'). `actor` is always the person
 * who made it (who added, who left, who renamed); `subject` the one added or removed; `name` the
 * chat's new name of a rename. Never routed to agents, and it counts as unread for nobody who had
 * read the chat up to it.
 */
export interface SystemLine {
  kind: SystemLineKind;
  actor: SystemLinePerson;
  subject?: SystemLinePerson;
  name?: string;
}
