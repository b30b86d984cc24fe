import { createRoot } from 'react-dom/client';
import { ConfabClient } from '@confab/client';
import { AppShell, ChatPage, ConfabProvider, InitializingScreen, LoginScreen, useBrowserLocation, useConfabStore } from '@confab/chat-ui';
import '@confab/chat-ui/theme.css';

const client = new ConfabClient({ baseUrl: import.meta.env.VITE_CONFAB_URL ?? 'http://127.0.0.1:8090' });
void client.initialize();

function Chat() {
  const chatId = useBrowserLocation().pathname.match(/^\/chat\/(\w+)/)?.[1];
  const session = useConfabStore((state) => (state.initializing ? 'starting' : state.isAuthenticated ? 'in' : 'out'));
  if (session !== 'in') return session === 'starting' ? <InitializingScreen /> : <LoginScreen />;
  return <AppShell activeChatId={chatId}>{chatId && <ChatPage key={chatId} chatId={chatId} />}</AppShell>;
}
createRoot(document.getElementById('root')!).render(<ConfabProvider client={client}><Chat /></ConfabProvider>);
