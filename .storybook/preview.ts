import type { Preview } from '@storybook/react-vite';
import '../packages/chat-ui/src/theme/theme.css';

const preview: Preview = {
  parameters: { layout: 'fullscreen' },
};

export default preview;
