import type { Meta, StoryObj } from '@storybook/react-vite';
import { PeopleStrip } from './PeopleStrip';
import { narrow } from '../../storybook/storyStates';

const people = [
  { id: 'ann000000000001', name: 'Ann', online: true },
  { id: 'bob000000000001', name: 'bob', online: false },
  { id: 'carol0000000001', name: 'Carol', online: true },
  { id: 'dave00000000001', name: 'Dave', online: false },
  { id: 'agentdeep00000', name: 'Deep Research', online: false, isAgent: true },
];

const meta = {
  title: 'Components/PeopleStrip',
  component: PeopleStrip,
  args: { people },
  decorators: [(Story) => <div style={{ padding: 16 }}><Story /></div>],
} satisfies Meta<typeof PeopleStrip>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Two of five online: they come first, the rest is '+2'. */
export const Populated: Story = {};

/** Nobody online (everyone else has closed the app). */
export const NobodyOnline: Story = { args: { people: people.map((person) => ({ ...person, online: false })) } };

/** A chat of two. */
export const Small: Story = { args: { people: people.slice(0, 2) } };

/** No participants known yet (the chat is loading): nothing is shown. */
export const Empty: Story = { args: { people: [] } };

/** Populated on a phone (390×844). */
export const Narrow: Story = { ...Populated, ...narrow, tags: ['narrow'] };
