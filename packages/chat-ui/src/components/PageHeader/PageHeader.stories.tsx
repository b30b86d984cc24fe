import type { Meta, StoryObj } from '@storybook/react-vite';
import { longNames, narrow, rtlText, withRtl } from '../../storybook/storyStates';
import { withConfab } from '../../storybook/withConfab';
import { Button } from '../Button/Button';
import { PageHeader } from './PageHeader';

const meta = {
  title: 'Components/PageHeader',
  component: PageHeader,
  decorators: [withConfab({ signedIn: true })],
  args: { title: 'My Profile' },
} satisfies Meta<typeof PageHeader>;

export default meta;
type Story = StoryObj<typeof meta>;

/** With a back target: the back button (e.g. profile, agents, new chat go back to /). */
export const WithBackButton: Story = { args: { backTo: '/', backLabel: 'Back' } };

/** Without one: the sidebar menu toggle (visible on small screens only). */
export const WithMenuToggle: Story = { ...narrow, tags: ['narrow'] };

export const WithActions: Story = { args: { backTo: '/chat/c1', actions: <Button variant="secondary">Save</Button> } };

/** A long title on a phone truncates beside the back button. */
export const LongTitleNarrow: Story = { ...narrow, tags: ['narrow'], args: { title: longNames.chat, backTo: '/', backLabel: 'Back' } };

export const RightToLeft: Story = { args: { title: rtlText.chat, backTo: '/', backLabel: 'Back' }, decorators: [withRtl] };
