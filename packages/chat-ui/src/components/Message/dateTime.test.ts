import { describe, expect, it } from 'vitest';
import { clockTime, dayKeyOf, dayLabel, exactDateTime } from './dateTime';

const now = new Date(2026, 0, 5, 12, 0).getTime();
const local = (month: number, day: number, year = 2026) => new Date(year, month - 1, day, 9, 30).toISOString();

describe('dayLabel', () => {
  it("says 'Today' and 'Yesterday' in the chosen language", () => {
    expect(dayLabel(local(1, 5), now)).toBe('Today');
    expect(dayLabel(local(1, 4), now)).toBe('Yesterday');
    expect(dayLabel(local(1, 5), now, 'zh')).toBe('今天');
    expect(dayLabel(local(1, 4), now, 'zh')).toBe('昨天');
    // A clock running ahead of the viewer's: still today.
    expect(dayLabel(local(1, 6), now)).toBe('Today');
  });

  it('spells older days as dates, with the year only when not this year', () => {
    expect(dayLabel(local(1, 2), now)).toBe('Friday, January 2');
    expect(dayLabel(local(12, 30, 2025), now)).toBe('Tuesday, December 30, 2025');
    expect(dayLabel(local(1, 2), now, 'zh')).toBe('1月2日星期五');
    expect(dayLabel('not a date', now)).toBe('');
  });
});

describe('times', () => {
  it('gives the time of day, the local day key, and the exact time of a server date', () => {
    expect(clockTime(new Date(2026, 0, 5, 14, 5))).toBe('2:05 PM');
    expect(clockTime(new Date(2026, 0, 5, 14, 5), 'zh')).toBe('14:05');
    expect(dayKeyOf(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(dayKeyOf('nonsense')).toBeNull();
    expect(exactDateTime('2026-01-05 14:05:00.000Z')).toMatch(/^Monday, January 5, 2026 at \d{1,2}:05 [AP]M$/);
  });
});
