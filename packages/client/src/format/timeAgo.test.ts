import { describe, expect, it } from 'vitest';
import { timeAgo } from './timeAgo';

const now = new Date(2026, 4, 20, 12, 0, 0); // local time, so the calendar fallback is zone-proof
const ago = (milliseconds: number) => new Date(now.getTime() - milliseconds);
const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

describe('timeAgo', () => {
  it.each([
    [ago(0), '0m ago', '0分钟前'],
    [ago(59 * 1000), '0m ago', '0分钟前'],
    [ago(5 * minute), '5m ago', '5分钟前'],
    [ago(59 * minute), '59m ago', '59分钟前'],
    [ago(hour), '1h ago', '1小时前'],
    [ago(23 * hour + 59 * minute), '23h ago', '23小时前'],
    [ago(day), '1d ago', '1天前'],
    [ago(6 * day + 23 * hour), '6d ago', '6天前'],
    [ago(7 * day), 'May 13', '5月13日'],
    [new Date(2026, 0, 5, 9, 30), 'Jan 5', '1月5日'],
    [new Date(now.getTime() + hour), '0m ago', '0分钟前'],
  ])('%s → %s / %s', (date, english, chinese) => {
    expect(timeAgo(date, { now })).toBe(english);
    expect(timeAgo(date, { now, locale: 'zh' })).toBe(chinese);
  });

  it('reads PocketBase and ISO datetimes and epoch milliseconds', () => {
    const reference = Date.parse('2026-05-20T12:00:00Z');
    expect(timeAgo('2026-05-20 11:55:00.000Z', { now: reference })).toBe('5m ago');
    expect(timeAgo('2026-05-20T09:00:00Z', { now: reference })).toBe('3h ago');
    expect(timeAgo(reference - 2 * day, { now: reference })).toBe('2d ago');
  });

  it('returns an empty label for unparsable dates', () => {
    expect(timeAgo('not a date', { now })).toBe('');
  });
});
