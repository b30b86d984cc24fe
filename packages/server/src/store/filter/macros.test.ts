import { describe, expect, it } from 'vitest';
import { macroNames, type MacroName } from './ast';
import { formatDateTime, macroValue } from './macros';

describe('macroValue', () => {
  it.each<[string, Record<MacroName, string>]>([
    [
      '2024-02-29T13:45:30.123Z',
      {
        '@now': '2024-02-29 13:45:30.123Z',
        '@yesterday': '2024-02-28 13:45:30.123Z',
        '@tomorrow': '2024-03-01 13:45:30.123Z',
        '@todayStart': '2024-02-29 00:00:00.000Z',
        '@todayEnd': '2024-02-29 23:59:59.999Z',
        '@monthStart': '2024-02-01 00:00:00.000Z',
        '@monthEnd': '2024-02-29 23:59:59.999Z',
        '@yearStart': '2024-01-01 00:00:00.000Z',
        '@yearEnd': '2024-12-31 23:59:59.999Z',
      },
    ],
    [
      '2025-12-31T23:59:59.999Z',
      {
        '@now': '2025-12-31 23:59:59.999Z',
        '@yesterday': '2025-12-30 23:59:59.999Z',
        '@tomorrow': '2026-01-01 23:59:59.999Z',
        '@todayStart': '2025-12-31 00:00:00.000Z',
        '@todayEnd': '2025-12-31 23:59:59.999Z',
        '@monthStart': '2025-12-01 00:00:00.000Z',
        '@monthEnd': '2025-12-31 23:59:59.999Z',
        '@yearStart': '2025-01-01 00:00:00.000Z',
        '@yearEnd': '2025-12-31 23:59:59.999Z',
      },
    ],
  ])('at %s (UTC, whatever the local zone)', (iso, expected) => {
    const now = new Date(iso);
    for (const name of macroNames) expect([name, macroValue(name, now)]).toEqual([name, expected[name]]);
  });

  it('formats dates the way records store them', () => {
    expect(formatDateTime(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)))).toBe('2026-01-02 03:04:05.006Z');
  });
});
