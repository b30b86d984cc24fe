import { useComponents } from '@confab/chat-ui';

/**
 * The main area while a page's code loads inside the signed-in shell (the sidebar stays): the
 * same spinner and wording as the app-start screen, without a second <main> landmark.
 */
export function PageLoading() {
  const { Spinner } = useComponents();
  return (
    <div role="status" className="cf-initializing__status" style={{ minHeight: '50vh', alignContent: 'center' }}>
      <Spinner />
      <p>Loading...</p>
    </div>
  );
}
