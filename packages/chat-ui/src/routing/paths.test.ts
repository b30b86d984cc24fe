import { describe, expect, it } from 'vitest';
import { isPublicPath, safeRedirectPath } from './paths';

describe('isPublicPath', () => {
  it.each(['/', '/login', '/register', '/forgot-password', '/reset-password', '/login/', '/join/abc123', '/join/abc/def'])(
    '%s is public',
    (path) => expect(isPublicPath(path)).toBe(true),
  );
  it.each(['/chat', '/chat/new', '/drops', '/profile', '/agents', '/admin/confab-agents', '/join', '/loginx', '/complete-account'])(
    '%s is private',
    (path) => expect(isPublicPath(path)).toBe(false),
  );
});

describe('safeRedirectPath', () => {
  const origin = 'https://confab.app';
  it.each([
    ['/join/abc123', '/join/abc123'],
    ['/chat/x?tab=files#top', '/chat/x?tab=files#top'],
    ['/', '/'],
  ])('keeps the same-origin path %s', (value, expected) => expect(safeRedirectPath(value, origin)).toBe(expected));

  it.each([null, undefined, '', 'chat', 'https://evil.example/', '//evil.example', '/\\evil.example', '/\t/evil.example', 'javascript:alert(1)'])(
    'rejects %j',
    (value) => expect(safeRedirectPath(value, origin)).toBeNull(),
  );
});
