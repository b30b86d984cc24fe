import { Component, Suspense, lazy, useContext, useEffect, useState, type ComponentType, type CSSProperties, type ReactNode } from 'react';
import { Alert } from '../components/Alert/Alert';
import { Button } from '../components/Button/Button';
import { Spinner as DefaultSpinner } from '../components/Spinner/Spinner';
import { ComponentsContext } from '../provider/ComponentsContext';

/*
 * Parts of the chat page that a chat does not show when it opens (the files panel, the Create a
 * Drop modal, chart and search-result bodies, the upload zone, a message's editor and delete
 * question) load on demand, so the first visit to a chat downloads less. Each is a separate chunk
 * (Vite or the host's bundler splits at the dynamic import; tsup keeps the split in the published
 * build). What opens a part calls its `preload` on intent (pointer over or focus on the button),
 * so the code is usually there by the time of the click.
 */

/** A component whose code loads the first time it renders or is preloaded. */
export interface LazyPart<Props extends object> {
  /** Renders the part; it suspends until the code has loaded (wrap in <LazyBoundary>). */
  Component: ComponentType<Props>;
  /**
   * Starts loading the code, once (a failed load may be tried again); settles when it is done.
   * Never rejects: rendering the part reports a failure where it shows.
   */
  preload: () => Promise<void>;
}

/** A lazy part over `load` (a dynamic import) and `pick` (the component in the loaded module). */
export function lazyPart<Module, Props extends object>(load: () => Promise<Module>, pick: (module: Module) => ComponentType<Props>): LazyPart<Props> {
  let loading: Promise<ComponentType<Props>> | null = null;
  // The component once its code has arrived: rendered directly, without suspending at all.
  let loaded: ComponentType<Props> | null = null;
  const makeLazy = () => lazy(async () => ({ default: await loadOnce() }));
  let current = makeLazy();
  const loadOnce = () => {
    loading ??= load().then(
      (module) => (loaded = pick(module)),
      (error: unknown) => {
        // Forget the failure, so a retry (or the next hover) downloads again. React.lazy
        // remembers a failure for good, so a retry (LazyBoundary's) also needs a fresh lazy.
        loading = null;
        failedParts.add(() => {
          current = makeLazy();
        });
        throw new PartLoadError(error);
      },
    );
    return loading;
  };
  function LazyComponent(props: Props) {
    // Chosen once per instance (a changing type would remount it): the loaded code if it is here
    // (preloaded, or loaded for another instance), else the lazy component, which suspends.
    const [Loaded] = useState(() => loaded ?? (current as ComponentType<Props>));
    return <Loaded {...props} />;
  }
  return {
    Component: LazyComponent,
    preload: () =>
      loadOnce().then(
        () => undefined,
        () => undefined,
      ),
  };
}

/** A part's code could not be loaded (offline, or a chunk gone after a deploy). */
export class PartLoadError extends Error {
  constructor(cause: unknown) {
    super('A part of the page could not be loaded.', { cause });
    this.name = 'PartLoadError';
  }
}

/** How to give each part whose load failed a fresh start; LazyBoundary's retry runs them. */
const failedParts = new Set<() => void>();

function retryFailedParts(): void {
  for (const reset of failedParts) reset();
  failedParts.clear();
}

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

export interface LazyBoundaryProps {
  /** The part(s) rendered inside; a part that fails to load shows `failed` instead. */
  children: ReactNode;
  /** Shown while the code loads. */
  fallback: ReactNode;
  /** Shown when the code could not be loaded; `retry` loads it again. */
  failed: (retry: () => void) => ReactNode;
  /** A failure shown is forgotten when this changes (e.g. the path: the user went elsewhere). */
  resetKey?: unknown;
}

interface LazyBoundaryState {
  error: unknown;
}

/**
 * Suspense plus an error boundary for lazy parts: the fallback while the code loads, and a
 * failure to load it (a chunk that did not download, e.g. offline or after a deploy) with a retry
 * instead of taking the whole chat page down. Any other error passes on, as without the boundary.
 */
export class LazyBoundary extends Component<LazyBoundaryProps, LazyBoundaryState> {
  override state: LazyBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): Partial<LazyBoundaryState> {
    return { error };
  }

  private readonly retry = () => {
    retryFailedParts();
    this.setState({ error: null });
  };

  override componentDidUpdate(previous: LazyBoundaryProps): void {
    if (this.state.error !== null && !Object.is(previous.resetKey, this.props.resetKey)) this.retry();
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error instanceof PartLoadError) return this.props.failed(this.retry);
    if (error !== null) throw error;
    return (
      <Suspense fallback={this.props.fallback}>
        {this.props.children}
      </Suspense>
    );
  }
}

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
