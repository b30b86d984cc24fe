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

  it('answers 503 with a clear message when the database cannot be reached, whatever the way', () => {
    const unavailable = { status: 503, message: 'The database is unavailable right now. Please try again in a few seconds.', data: {} };
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const shutDown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const startingUp = Object.assign(new Error('the database system is starting up'), { code: '57P03' });
    for (const error of [refused, shutDown, startingUp, new Error('Connection terminated unexpectedly'), new Error('timeout exceeded when trying to connect')]) {
      expect(toErrorBody(error)).toEqual(unavailable);
    }
    // A bad query is still a 500 with no detail.
    expect(toErrorBody(Object.assign(new Error('syntax error at or near "selec"'), { code: '42601' })).status).toBe(500);
  });

  it('keeps framework 4xx statuses with generic messages', () => {
    const tooLarge = Object.assign(new Error('Request body is too large: 123 bytes'), { statusCode: 413 });
    expect(toErrorBody(tooLarge)).toEqual({ status: 413, message: 'Request entity too large.', data: {} });
  });
});
