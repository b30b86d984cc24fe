import { useContext, useEffect, type CSSProperties, type ReactNode } from 'react';
import { Alert } from '../components/Alert/Alert';
import { Button } from '../components/Button/Button';
import { Spinner as DefaultSpinner } from '../components/Spinner/Spinner';
import { ComponentsContext } from '../provider/ComponentsContext';
import { LazyBoundary, lazyPart } from './lazyPart';

export { LazyBoundary, PartLoadError, lazyPart } from './lazyPart';
export type { LazyBoundaryProps, LazyPart } from './lazyPart';

/*
 * Parts of the chat page that a chat does not show when it opens (the files panel, the Create a
 * Drop modal, chart and search-result bodies, the upload zone, a message's editor and delete
 * question) load on demand, so the first visit to a chat downloads less. Each is a separate chunk
 * (Vite or the host's bundler splits at the dynamic import; tsup keeps the split in the published
 * build). What opens a part calls its `preload` on intent (pointer over or focus on the button),
 * so the code is usually there by the time of the click.
 */

export const LazyChatFilesPanel = lazyPart(
  () => import('../components/ChatFilesPanel/ChatFilesPanel'),
  (module) => module.ChatFilesPanel,
);
export const LazyCreateDropModal = lazyPart(
  () => import('../components/CreateDropModal/CreateDropModal'),
  (module) => module.CreateDropModal,
);
export const LazyChartMessage = lazyPart(
  () => import('../components/ChartMessage/ChartMessage'),
  (module) => module.ChartMessage,
);
export const LazySearchResultsCard = lazyPart(
  () => import('../components/SearchResultsCard/SearchResultsCard'),
  (module) => module.SearchResultsCard,
);
export const LazyUploadZone = lazyPart(
  () => import('../components/MessageInput/UploadZone'),
  (module) => module.UploadZone,
);
export const LazyReactionPicker = lazyPart(
  () => import('../components/Reactions/ReactionPicker'),
  (module) => module.ReactionPicker,
);

export const LazyFileMessageCard = lazyPart(
  () => import('../components/FileMessageCard/FileMessageCard'),
  (module) => module.FileMessageCard,
);

export const LazyMessageActionPanel = lazyPart(
  () => import('../components/Message/MessageActionPanel'),
  (module) => module.MessageActionPanel,
);

export interface DialogPartProps {
  /** What loads, as the loading text says it: 'Loading files...'. */
  loadingLabel: string;
  /** What failed, as the alert says it: 'The files panel could not be loaded.'. */
  failedLabel: string;
  /** Classes of the dialog box beside cf-dialog, so the placeholder has the dialog's size. */
  className?: string | undefined;
  /** Closes the dialog (the backdrop, Escape, Close). */
  onClose: () => void;
  children: ReactNode;
}

/**
 * A lazily loaded modal dialog: while its code loads, the backdrop and an empty box of the
 * dialog's size with the Spinner and the loading text (a status), so nothing on the page moves
 * and the dialog fills the box when it arrives; a failed load offers Try again and Close.
 */
export function LazyDialog({ loadingLabel, failedLabel, className, onClose, children }: DialogPartProps) {
  return (
    <LazyBoundary
      fallback={
        <DialogShell className={className} onClose={onClose}>
          <LoadingStatus label={loadingLabel} />
        </DialogShell>
      }
      failed={(retry) => (
        <DialogShell className={className} onClose={onClose}>
          <Alert>{failedLabel}</Alert>
          <div className="cf-dialog__actions">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
            <Button onClick={retry}>Try again</Button>
          </div>
        </DialogShell>
      )}
    >
      {children}
    </LazyBoundary>
  );
}

function DialogShell({ className, onClose, children }: { className?: string; onClose: () => void; children: ReactNode }) {
  // Escape closes, as in the dialog itself (focus stays on the button that opened it meanwhile).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [onClose]);
  return (
    <div
      className="cf-dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className={['cf-dialog', className].filter(Boolean).join(' ')}>{children}</div>
    </div>
  );
}

/** The Spinner (decorative) with its text, as a polite status; the text only for screen readers when `quiet`. */
function LoadingStatus({ label, quiet = false }: { label: string; quiet?: boolean }) {
  // The provider's Spinner; a Message rendered on its own (without a provider) uses the default.
  const Spinner = useContext(ComponentsContext)?.Spinner ?? DefaultSpinner;
  if (quiet) {
    return (
      <span role="status">
        <Spinner size={24} />
        <span className="cf-visually-hidden">{label}</span>
      </span>
    );
  }
  return (
    <div className="cf-files-panel__state" role="status">
      <Spinner />
      <span>{label}</span>
    </div>
  );
}

export interface MessagePartProps {
  /** The class of the loaded body (cf-chart, cf-search-card), so the placeholder has its frame. */
  className: string;
  /** The placeholder's min-height in px: about the loaded body's, so the list barely moves. */
  minHeight: number;
  /** Said to screen readers while loading: 'Loading chart...'. */
  loadingLabel: string;
  /** Said when the code could not be loaded: 'This chart could not be loaded.'. */
  failedLabel: string;
  children: ReactNode;
}

/**
 * A lazily loaded message body (a chart, search results): a box of the body's frame and about its
 * height with the Spinner while the code loads; a failed load says so with Retry, like a message
 * that failed to send.
 */
export function LazyMessagePart({ className, minHeight, loadingLabel, failedLabel, children }: MessagePartProps) {
  const style: CSSProperties = { minHeight, display: 'grid', placeItems: 'center' };
  return (
    <LazyBoundary
      fallback={
        <div className={className} style={style}>
          <LoadingStatus label={loadingLabel} quiet />
        </div>
      }
      failed={(retry) => (
        <p className="cf-message__status cf-message__status--failed" role="alert">
          {failedLabel}{' '}
          <button type="button" className="cf-message__retry" onClick={retry}>
            Retry
          </button>
        </p>
      )}
    >
      {children}
    </LazyBoundary>
  );
}
