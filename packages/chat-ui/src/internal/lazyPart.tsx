import { Component, Suspense, lazy, useState, type ComponentType, type ReactNode } from 'react';

/*
 * The lazy-loading machinery of lazyParts.tsx and of ConfabApp's pages (app/pages.ts), on its own:
 * the app shell loads it with the first page, while the chat page's parts (lazyParts.tsx) and their
 * placeholders load with the chat page only.
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
