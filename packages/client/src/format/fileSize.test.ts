import { describe, expect, it } from 'vitest';
import { formatFileSize } from './fileSize';

describe('formatFileSize', () => {
  it.each([
    [0, '0 B'],
    [512, '512 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    [1536, '1.5 KB'],
    [1024 * 1024 - 1, '1.0 MB'],
    [1024 * 1023, '1023.0 KB'],
    [1024 * 1024, '1.0 MB'],
    [100 * 1024 * 1024, '100.0 MB'],
    [-1, '0 B'],
    [Number.NaN, '0 B'],
  ])('%d bytes → %s', (size, expected) => {
    expect(formatFileSize(size)).toBe(expected);
  });
});
