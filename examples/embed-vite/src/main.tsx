import { createRoot } from 'react-dom/client';
import { ConfabClient } from '@confab/client';
import { ConfabApp } from '@confab/chat-ui';
import '@confab/chat-ui/theme.css';

const client = new ConfabClient({ baseUrl: import.meta.env.VITE_CONFAB_URL ?? 'http://127.0.0.1:8090' });
void client.initialize(); // restores a stored session; realtime connects once signed in

// The whole product under /team-chat, filling the host's box; the tab's title follows the chat
// while Confab is on the page, and is the host's again once it is gone.
const root = createRoot(document.getElementById('confab')!);
root.render(<ConfabApp client={client} routing={{ basePath: '/team-chat' }} documentTitle />);
document.getElementById('close-chat')!.addEventListener('click', () => root.unmount());
