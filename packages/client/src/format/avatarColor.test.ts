import { describe, expect, it } from 'vitest';
import { agentAvatarColor, avatarColor, avatarPalette } from './avatarColor';

describe('avatarColor', () => {
  it('is green for agents whatever the id', () => {
    expect(avatarColor('abc', true)).toBe(agentAvatarColor);
    expect(avatarColor('xyz', true)).toBe(agentAvatarColor);
  });

  it('is stable per author and taken from the palette', () => {
    const ids = ['user00000000001', 'user00000000002', 'q7x3', '', 'ünïcödé'];
    for (const id of ids) {
      expect(avatarColor(id)).toBe(avatarColor(id));
      expect(avatarPalette).toContain(avatarColor(id));
      expect(avatarColor(id)).not.toBe(agentAvatarColor);
    }
  });

  it('spreads different authors over several colours', () => {
    const colours = new Set(Array.from({ length: 50 }, (_, index) => avatarColor(`user${index}`)));
    expect(colours.size).toBeGreaterThan(5);
  });
});
