import { useComponents } from '../../provider/ComponentsContext';

export interface InitializingScreenProps {
  /** The text read out and shown under the spinner. */
  message?: string | undefined;
}

/** Shown at app start while the client restores the session (docs/PRODUCT.md §2). */
export function InitializingScreen({ message = 'Loading Confab...' }: InitializingScreenProps) {
  const { Logo, Spinner } = useComponents();
  return (
    <main className="cf-initializing">
      <Logo />
      <div role="status" className="cf-initializing__status">
        <Spinner />
        <p>{message}</p>
      </div>
    </main>
  );
}
