import { describe, expect, it } from 'vitest';
import { ConfabServerError } from '../errors';
import { toErrorBody } from './errorHandler';

describe('error mapping', () => {
  it('maps the server error type through its code table', () => {
    expect(toErrorBody(new ConfabServerError('tooManyRequests'))).toEqual({
      status: 429,
      message: 'Too many attempts. Please wait a few minutes and try again.',
      data: {},
    });
  });

  it('hides every detail of unexpected errors', () => {
    const body = toErrorBody(new Error('SQLITE_ERROR: no such table: secrets at /srv/app.js:1'));
    expect(body).toEqual({ status: 500, message: 'Something went wrong while processing your request.', data: {} });
  });

  it('answers a full disk (ENOSPC, SQLITE_FULL) with 507 and a text that says so', () => {
    const expected = { status: 507, message: 'The server is out of storage space. Please try again later.', data: {} };
    expect(toErrorBody(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))).toEqual(expected);
    expect(toErrorBody(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toEqual(expected);
  });

  it('keeps framework 4xx statuses with generic messages', () => {
    const tooLarge = Object.assign(new Error('Request body is too large: 123 bytes'), { statusCode: 413 });
    expect(toErrorBody(tooLarge)).toEqual({ status: 413, message: 'Request entity too large.', data: {} });
  });
});
