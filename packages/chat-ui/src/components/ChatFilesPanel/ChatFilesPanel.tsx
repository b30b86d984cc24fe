import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { constants, fileDisplayName, messages, type ChatFile, type ClientState, type TimeAgoLocale } from '@confab/client';
import { useModalDialog } from '../../internal/useModalDialog';
import { useConfabClient, useConfabStore } from '../../provider/hooks';
import { Alert } from '../Alert/Alert';
import { Button } from '../Button/Button';
import { Spinner } from '../Spinner/Spinner';
import { FileDownload } from './FileDownload';
import { FileItem } from './FileItem';
import { FilePreview } from './FilePreview';
import { useChatFiles } from './useChatFiles';
import { useFileDeletion } from './useFileDeletion';
import { useFileToken } from './useFileToken';

export interface ChatFilesPanelProps {
  chatId: string;
  onClose: () => void;
  /** Changing it reloads the list, e.g. after an upload finished while the panel is open. */
  refreshKey?: number | undefined;
  /** Time-ago language; default 'en'. */
  locale?: TimeAgoLocale | undefined;
}

export type FilesView = 'list' | 'grid';

const pageSize = constants.filesPanel.pageSize;
const liveSiteHint = "Upload an index.html to publish this chat's live website.";

/** Client-side search by the shown name (docs/PRODUCT.md §2: the panel filters what it has loaded). */
export function filterFiles(files: ChatFile[], query: string): ChatFile[] {
  const needle = query.trim().toLowerCase();
  return needle === '' ? files : files.filter((file) => fileDisplayName(file).toLowerCase().includes(needle));
}

const selectUserId = (state: ClientState) => state.user?.id ?? null;

/**
 * docs/PRODUCT.md §6: users delete only the files they uploaded (the server answers 404 to anything
 * else), so Delete and selection are offered on the caller's own files only.
 */
export function canDeleteFile(file: Pick<ChatFile, 'uploaded_by'>, userId: string | null): boolean {
  return userId !== null && file.uploaded_by === userId;
}

/**
 * docs/PRODUCT.md §2 Chat files panel and §4 Files panel, as a modal dialog: search, grid/list,
 * select mode with bulk delete, per-file preview, Download and Delete, 10 files per page, the
 * chat's live website link. States: loading, error with Retry, empty, no match, list. Delete and
 * selection appear on the caller's own files only; the permission texts stay for races (a file gone
 * meanwhile).
 */
export function ChatFilesPanel({ chatId, onClose, refreshKey = 0, locale = 'en' }: ChatFilesPanelProps) {
  const client = useConfabClient();
  const userId = useConfabStore(selectUserId);
  const { state, reload, retry } = useChatFiles(chatId, refreshKey);
  const fileToken = useFileToken();
  const deletion = useFileDeletion(reload);
  const [query, setQuery] = useState('');
  const [view, setView] = useState<FilesView>('list');
  const [selecting, setSelecting] = useState(false);
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<string>>(new Set());
  const [page, setPage] = useState(1);
  const [previewId, setPreviewId] = useState<string | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const searchId = useId();
  const onKeyDown = useModalDialog(dialogRef, { onClose, initialFocusRef: searchRef });

  const files = useMemo(() => (state.status === 'ready' ? state.files : []), [state]);
  // The live website is the chat's uploaded index.html. Only the newest files are loaded, so a
  // full list may hide an older index.html: then the link is offered anyway.
  const hasLiveSite = files.length >= constants.filesPanel.fetchLimit || files.some((file) => file.original_name === 'index.html');
  const matching = useMemo(() => filterFiles(files, query), [files, query]);
  const pageCount = Math.max(1, Math.ceil(matching.length / pageSize));
  const currentPage = Math.min(page, pageCount);
  const visible = matching.slice((currentPage - 1) * pageSize, currentPage * pageSize);
  const ownFiles = files.filter((file) => canDeleteFile(file, userId));
  const selectedFiles = ownFiles.filter((file) => selectedIds.has(file.id));
  const previewed = files.find((file) => file.id === previewId) ?? null;
  const error = deletion.error ?? downloadError;

  const toggleSelecting = () => {
    setSelecting((on) => !on);
    setSelectedIds(new Set());
  };
  const setSelected = (fileId: string, selected: boolean) =>
    setSelectedIds((current) => {
      const next = new Set(current);
      if (selected) next.add(fileId);
      else next.delete(fileId);
      return next;
    });
  const deleteSelected = async () => {
    setDownloadError(null);
    const outcome = await deletion.deleteMany(selectedFiles);
    if (outcome === 'all') setSelecting(false);
    // After a partial failure the files left are those the user may not delete: start afresh.
    if (outcome === 'all' || outcome === 'partial') setSelectedIds(new Set());
  };
  const deleteOne = (file: ChatFile) => {
    setDownloadError(null);
    void deletion.deleteOne(file);
  };
  const { clearError: clearDeletionError } = deletion;
  // One message at a time: a download failure replaces an earlier delete outcome.
  const showDownloadError = useCallback(
    (text: string) => {
      clearDeletionError();
      setDownloadError(text);
    },
    [clearDeletionError],
  );
  const downloadOf = (file: ChatFile, className?: string) => (
    <FileDownload file={file} token={fileToken.token} requestToken={fileToken.request} onError={showDownloadError} className={className} />
  );

  return (
    <div
      className="cf-dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div ref={dialogRef} role="dialog" aria-modal="true" aria-label="Chat files" tabIndex={-1} className="cf-dialog cf-files-panel" onKeyDown={onKeyDown}>
        <header className="cf-dialog__header">
          <h2 className="cf-dialog__title">Chat Files</h2>
          {fileToken.token !== null && hasLiveSite ? (
            <a className="cf-button cf-button--secondary" href={client.files.liveSiteUrl(chatId, fileToken.token)} target="_blank" rel="noopener noreferrer">
              Open Live Website
            </a>
          ) : (
            <Button variant="secondary" disabled title={hasLiveSite ? undefined : liveSiteHint}>
              Open Live Website
            </Button>
          )}
          <button type="button" className="cf-dialog__close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>

        <div className="cf-files-panel__toolbar">
          <label htmlFor={searchId} className="cf-visually-hidden">
            Search files
          </label>
          <input
            ref={searchRef}
            id={searchId}
            type="search"
            className="cf-field__input cf-files-panel__search"
            placeholder="Search files"
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setPage(1);
            }}
          />
          <div className="cf-segmented" role="group" aria-label="View">
            <button type="button" aria-pressed={view === 'list'} onClick={() => setView('list')}>
              List view
            </button>
            <button type="button" aria-pressed={view === 'grid'} onClick={() => setView('grid')}>
              Grid view
            </button>
          </div>
          <Button variant="secondary" onClick={toggleSelecting} disabled={state.status !== 'ready' || ownFiles.length === 0}>
            {selecting ? 'Cancel' : 'Select'}
          </Button>
          {selecting ? (
            <Button variant="danger" disabled={selectedFiles.length === 0 || deletion.busy} onClick={() => void deleteSelected()}>
              {`Delete selected (${selectedFiles.length})`}
            </Button>
          ) : null}
        </div>

        {error !== null ? <Alert className="cf-files-panel__alert">{error}</Alert> : null}

        <div className="cf-files-panel__body">
          {state.status === 'loading' ? (
            <div className="cf-files-panel__state" role="status">
              <Spinner size={28} />
              <span>Loading files...</span>
            </div>
          ) : state.status === 'error' ? (
            <div className="cf-files-panel__state">
              <Alert>{messages.loadFilesFailed}</Alert>
              <Button onClick={retry}>Retry</Button>
            </div>
          ) : files.length === 0 ? (
            <p className="cf-files-panel__state">{messages.noFilesUploaded}</p>
          ) : matching.length === 0 ? (
            <p className="cf-files-panel__state">{messages.noFilesMatch}</p>
          ) : (
            <ul className={`cf-files cf-files--${view}`} aria-label="Files">
              {visible.map((file) => (
                <FileItem
                  key={file.id}
                  file={file}
                  selecting={selecting}
                  selected={selectedIds.has(file.id)}
                  onSelectedChange={(selected) => setSelected(file.id, selected)}
                  onPreview={() => setPreviewId(file.id)}
                  onDelete={() => deleteOne(file)}
                  canDelete={canDeleteFile(file, userId)}
                  deleteDisabled={deletion.busy}
                  download={downloadOf(file)}
                  locale={locale}
                />
              ))}
            </ul>
          )}
        </div>

        {pageCount > 1 ? (
          <nav className="cf-pagination cf-files-panel__pages" aria-label="File pages">
            <button type="button" disabled={currentPage === 1} onClick={() => setPage(currentPage - 1)}>
              Previous
            </button>
            <span aria-live="polite">{`Page ${currentPage} of ${pageCount}`}</span>
            <button type="button" disabled={currentPage === pageCount} onClick={() => setPage(currentPage + 1)}>
              Next
            </button>
          </nav>
        ) : null}

        {previewed !== null ? (
          <FilePreview
            file={previewed}
            token={fileToken.token}
            tokenFailed={fileToken.failed}
            download={downloadOf(previewed, 'cf-button cf-button--primary')}
            onClose={() => setPreviewId(null)}
            locale={locale}
          />
        ) : null}
      </div>
    </div>
  );
}
