import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PeopleStrip } from './PeopleStrip';

const ann = { id: 'ann000000000001', name: 'Ann', online: false };
const bob = { id: 'bob000000000001', name: 'bob', online: true };
const carol = { id: 'carol0000000001', name: 'Carol', online: false };
const dave = { id: 'dave00000000001', name: 'Dave', online: true };

describe('PeopleStrip', () => {
  it('lists the people, online ones first and marked online', () => {
    render(<PeopleStrip people={[ann, bob, carol]} />);
    const items = within(screen.getByRole('list', { name: 'People in this chat' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['Bbobonline', 'AAnn', 'CCarol']);
    expect(within(items[0] as HTMLElement).getByText('online')).toBeInTheDocument();
    expect(within(items[1] as HTMLElement).queryByText('online')).toBeNull();
  });

  it("shows the first few and says how many more there are", () => {
    render(<PeopleStrip people={[ann, bob, carol, dave]} maxShown={2} />);
    const items = within(screen.getByRole('list', { name: 'People in this chat' })).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[2]).toHaveTextContent('2 more people');
  });

  it('renders nothing without people', () => {
    const { container } = render(<PeopleStrip people={[]} />);
    expect(container).toBeEmptyDOMElement();
  });
});
