import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { clientMessage } from '../../testing/builders';
import { Message } from '../Message/Message';
import { SystemLine } from './SystemLine';

const now = Date.parse('2026-01-05T12:30:00Z');
const ann = { id: 'user00000000001', name: 'Ann' };
const bob = { id: 'user00000000002', name: 'Bob' };
const createdAt = new Date(now - 5 * 60_000).toISOString();

const meta = {
  title: 'Components/SystemLine',
  component: SystemLine,
  args: { now, createdAt, fallback: '' },
  decorators: [(Story) => <div style={{ maxWidth: 760, padding: 16 }}><Story /></div>],
} satisfies Meta<typeof SystemLine>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Added: Story = {
  args: { line: { kind: 'added', actor: ann, subject: bob } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('note', { name: 'Ann added Bob' })).toBeInTheDocument();
  },
};
export const Removed: Story = { args: { line: { kind: 'removed', actor: ann, subject: bob } } };
export const JoinedViaLink: Story = { args: { line: { kind: 'joined_via_link', actor: bob } } };
export const JoinedViaInvitation: Story = { args: { line: { kind: 'joined_via_invitation', actor: bob } } };
export const Left: Story = { args: { line: { kind: 'left', actor: bob } } };
export const Renamed: Story = { args: { line: { kind: 'renamed', actor: ann, name: 'Q3 launch plans' } } };
/** In the reader's language. */
export const Chinese: Story = { args: { line: { kind: 'renamed', actor: ann, name: 'Q3 launch plans' }, locale: 'zh' } };
/** A kind this version does not know: the server's plain text. */
export const UnknownKind: Story = { args: { line: { kind: 'pinned' as never, actor: ann }, fallback: 'Ann pinned a message' } };
/** Long names wrap, centred. */
export const LongNames: Story = { args: { line: { kind: 'renamed', actor: { id: 'u', name: 'Maximiliana Wolkenstein-Rosenthal' }, name: 'The quarterly planning and budget review for every region '.repeat(2) } } };
/** Between messages, as the list shows it. */
export const BetweenMessages: Story = {
  render: () => (
    <>
      <Message now={now} message={clientMessage({ content: 'Shall we bring Bob in?', author_name: 'Ann' }, { minutesAgo: 6, now })} />
      <Message now={now} message={clientMessage({ content: 'Ann added Bob', message_type: 'system', system: { kind: 'added', actor: ann, subject: bob } }, { minutesAgo: 5, now })} />
      <Message now={now} message={clientMessage({ content: 'Hi all!', author_name: 'Bob' }, { minutesAgo: 4, now })} />
    </>
  ),
};
