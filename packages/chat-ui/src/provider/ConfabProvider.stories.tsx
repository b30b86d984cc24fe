import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Message, type MessageProps } from '../components/Message/Message';
import type { MessageListEmptyProps } from '../components/MessageList/MessageListEmpty';
import { AppShell } from '../screens/AppShell/AppShell';
import { ChatPage } from '../screens/ChatPage/ChatPage';
import { LoginScreen } from '../screens/LoginScreen/LoginScreen';
import { storyUserRecord, type StoryClientOptions } from '../storybook/storyClient';
import { storyChats } from '../storybook/storyData';
import { narrow } from '../storybook/storyStates';
import { withConfab } from '../storybook/withConfab';

const chatId = storyChats[0]?.id ?? '';
const connected = { chats: storyChats, connectionState: 'connected' as const, isConnected: true };
const withMessages: StoryClientOptions['configure'] = (backend) => {
  backend.addMessages(chatId, 6, ['storyuser000002', storyUserRecord.id, 'agent0000000001']);
};

/** A host's own message: it decorates the default, receiving the same props. */
function FramedMessage(props: MessageProps) {
  return (
    <div style={{ borderInlineStart: '4px solid #5b5bd6', paddingInlineStart: 8 }} data-testid="host-message">
      <Message {...props} />
    </div>
  );
}

function HostEmptyState({ userName }: MessageListEmptyProps) {
  return (
    <div style={{ padding: 32 }}>
      <h2>Nothing here yet, {userName ?? 'friend'}</h2>
      <p>Your host app's own empty state.</p>
    </div>
  );
}

/**
 * ConfabProvider: the client, navigation, the theme and the overridable components (house style
 * 9). Its stories show the whole chat in each theme and with a host's overrides.
 */
const meta = {
  title: 'Provider/ConfabProvider',
  render: () => (
    <AppShell>
      <ChatPage chatId={chatId} />
    </AppShell>
  ),
} satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

export const LightTheme: Story = { decorators: [withConfab({ signedIn: true, state: connected, configure: withMessages })] };

/** The dark theme from the same custom properties. */
export const DarkTheme: Story = { decorators: [withConfab({ signedIn: true, state: connected, configure: withMessages, theme: 'dark' })] };

export const DarkThemeNarrow: Story = {
  ...narrow,
  tags: ['narrow'],
  decorators: [withConfab({ signedIn: true, state: connected, configure: withMessages, theme: 'dark' })],
};

export const DarkThemeSignIn: Story = {
  render: () => <LoginScreen redirectTo="/" />,
  decorators: [withConfab({ theme: 'dark' })],
};

/** `components={{ Message, EmptyState }}`: the host's parts replace the defaults, the rest stay. */
export const OverriddenComponents: Story = {
  decorators: [withConfab({ signedIn: true, state: connected, configure: withMessages, components: { Message: FramedMessage } })],
  play: async ({ canvasElement }) => {
    await expect((await within(canvasElement).findAllByTestId('host-message')).length).toBeGreaterThan(0);
  },
};

export const OverriddenEmptyState: Story = {
  decorators: [withConfab({ signedIn: true, state: connected, components: { EmptyState: HostEmptyState } })],
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('heading', { name: 'Nothing here yet, Alice Liddell' })).toBeVisible();
  },
};
