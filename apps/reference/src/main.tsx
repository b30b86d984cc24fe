import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConfabClient } from '@confab/client';
import { ConfabApp } from '@confab/chat-ui';
import '@confab/chat-ui/theme.css';
import './page.css';

// One client for the whole app; the API is served from the same origin (in dev through Vite's proxy).
const client = new ConfabClient({ baseUrl: window.location.origin });

// Started here, not in an effect, so StrictMode's double effects cannot run it twice. The client
// always ends with initializing = false; the catch only reports an unexpected failure.
client.initialize().catch((error: unknown) => console.error('Confab failed to initialize', error));
// The first page's data goes out with the session refresh, not after the page's code has loaded.
client.preloadRoute(window.location.pathname);

const container = document.getElementById('root');
if (container === null) throw new Error('index.html must contain <div id="root">.');

// The whole product, filling the window (page.css), at the site's root; the theme follows the
// system's light or dark setting, and the tab's title is the app's.
createRoot(container).render(
  <StrictMode>
    <ConfabApp client={client} theme="auto" documentTitle />
  </StrictMode>,
);
