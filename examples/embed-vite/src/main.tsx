import { createRoot } from 'react-dom/client';
import { ConfabClient } from '@confab/client';
import { AppShell, ChatPage, ConfabProvider, CreateChatScreen, InitializingScreen, LoginScreen, useBrowserLocation, useConfabStore } from '@confab/chat-ui';
import '@confab/chat-ui/theme.css';

const client = new ConfabClient({ baseUrl: import.meta.env.VITE_CONFAB_URL ?? 'http://127.0.0.1:8090' });
void client.initialize(); // restores a stored session; realtime connects once signed in
function Chat() {
  const chatId = /^\/chat\/([^/]+)$/.exec(useBrowserLocation().pathname)?.[1];
  const session = useConfabStore((state) => (state.initializing ? 'starting' : state.isAuthenticated ? 'in' : 'out'));
  if (session !== 'in') return session === 'starting' ? <InitializingScreen /> : <LoginScreen />;
  const main = chatId === 'new' ? <CreateChatScreen /> : chatId && <ChatPage key={chatId} chatId={chatId} />;
  return <AppShell activeChatId={chatId === 'new' ? null : chatId}>{main}</AppShell>;
}
createRoot(document.getElementById('root')!).render(<ConfabProvider client={client}><Chat /></ConfabProvider>);
