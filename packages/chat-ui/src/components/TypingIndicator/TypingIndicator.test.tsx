import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TypingIndicator, typingText } from './TypingIndicator';

const ann = { user_id: 'ann000000000001', username: 'ann', name: 'Ann' };
const bob = { user_id: 'bob000000000001', username: 'bob', name: '' };
const carol = { user_id: 'carol0000000001', username: 'carol', name: 'Carol' };

describe('TypingIndicator', () => {
  it('is an empty polite live region while nobody types', () => {
    render(<TypingIndicator typists={[]} />);
    const region = screen.getByRole('status', { name: 'Who is typing' });
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toBeEmptyDOMElement();
  });

  it.each([
    [[ann], 'ann is typing…'],
    [[ann, bob], 'ann and bob are typing…'],
    [[ann, bob, carol], 'several people are typing…'],
  ])('says who is typing: %#', (typists, text) => {
    render(<TypingIndicator typists={typists} />);
    expect(screen.getByRole('status', { name: 'Who is typing' })).toHaveTextContent(text);
    expect(typingText(typists)).toBe(text);
  });
});
