import type { ReactNode } from 'react';
import { fileDisplayName, fileExtension, fileUploaderName, formatFileSize, type ChatFile, type TimeAgoLocale } from '@confab/client';
import { TimeAgo } from '../Message/TimeAgo';

export interface FileItemProps {
  file: ChatFile;
  /** Select mode shows a checkbox per file. */
  selecting: boolean;
  selected: boolean;
  onSelectedChange: (selected: boolean) => void;
  onPreview: () => void;
  onDelete: () => void;
  /** Whether the caller may delete the file (their own upload): only then Delete and the select box show. */
  canDelete?: boolean | undefined;
  deleteDisabled?: boolean | undefined;
  /** The download control (FileDownload). */
  download: ReactNode;
  locale?: TimeAgoLocale | undefined;
  /** The reference time of the time-ago label. */
  now?: number | undefined;
}

/**
 * One file of the panel (a list row or a grid card, by the list's class): name (opens the
 * preview), size, uploader and time ago, Download, and Delete when the file is the caller's. The name is user input and is only
 * ever rendered as text.
 */
export function FileItem({ file, selecting, selected, onSelectedChange, onPreview, onDelete, canDelete = true, deleteDisabled = false, download, locale = 'en', now }: FileItemProps) {
  const name = fileDisplayName(file);
  const uploader = fileUploaderName(file) || 'Unknown user';
  const extension = fileExtension(file.file || name).slice(1).toUpperCase();
  return (
    <li className={['cf-file', selected && 'cf-file--selected'].filter(Boolean).join(' ')}>
      {selecting && canDelete ? (
        <input type="checkbox" className="cf-file__select" aria-label={`Select ${name}`} checked={selected} onChange={(event) => onSelectedChange(event.target.checked)} />
      ) : null}
      <span className="cf-file__icon" aria-hidden="true">
        {extension || 'FILE'}
      </span>
      <div className="cf-file__main">
        <button type="button" className="cf-file__name" onClick={onPreview} title={name}>
          {name}
        </button>
        <p className="cf-file__meta">
          <span>{formatFileSize(file.size)}</span>
          <span>{uploader}</span>
          <TimeAgo date={file.created} locale={locale} now={now} />
        </p>
      </div>
      <div className="cf-file__actions">
        {download}
        {canDelete ? (
          <button type="button" className="cf-chip cf-chip--danger" aria-label={`Delete ${name}`} disabled={deleteDisabled} onClick={onDelete}>
            Delete
          </button>
        ) : null}
      </div>
    </li>
  );
}
