import { ClientResponseError } from 'pocketbase';
import { describe, expect, it } from 'vitest';
import { ConfabError, confabErrorFromResponse, toConfabError } from './errors';

describe('toConfabError', () => {
  it('keeps the status, the response message and the field errors of a ClientResponseError', () => {
    const error = toConfabError(
      new ClientResponseError({
        status: 400,
        data: {
          status: 400,
          message: 'Failed to create record.',
          data: { email: { code: 'validation_is_email', message: 'Must be a valid email address.' } },
        },
      }),
    );
    expect(error).toBeInstanceOf(ConfabError);
    expect(error.status).toBe(400);
    expect(error.message).toBe('Failed to create record.');
    expect(error.fieldErrors).toEqual({ email: { code: 'validation_is_email', message: 'Must be a valid email address.' } });
    expect(error.isAbort).toBe(false);
    expect(error.serverMessage).toBe('Failed to create record.');
  });

  it.each([401, 403, 404, 429, 500])('yields status %i with the response message', (status) => {
    const error = toConfabError(new ClientResponseError({ status, data: { message: `Status ${status}.` } }));
    expect(error.status).toBe(status);
    expect(error.message).toBe(`Status ${status}.`);
  });

  it('falls back to a generic message when the body has none', () => {
    const error = toConfabError(new ClientResponseError({ status: 502, data: {} }));
    expect(error.status).toBe(502);
    expect(error.message).toBe('Something went wrong.');
    expect(error.serverMessage).toBeNull();
  });

  it('flags aborted requests', () => {
    const abortError = toConfabError(new ClientResponseError({ isAbort: true }));
    expect(abortError.isAbort).toBe(true);
    expect(abortError.status).toBe(0);
    const domAbort = toConfabError(new DOMException('The operation was aborted.', 'AbortError'));
    expect(domAbort.isAbort).toBe(true);
    const wrappedAbort = toConfabError(new ClientResponseError(new DOMException('x', 'AbortError')));
    expect(wrappedAbort.isAbort).toBe(true);
  });

  it('reads a ClientResponseError of another copy of the SDK by its name and fields', () => {
    const sdkError = Object.assign(new Error('Failed to authenticate.'), {
      name: 'ClientResponseError 400',
      url: 'http://127.0.0.1/api/collections/users/auth-with-password',
      status: 400,
      response: { status: 400, message: 'Failed to authenticate.', data: {} },
      isAbort: false,
      originalError: null,
    });
    const error = toConfabError(sdkError);
    expect([error.status, error.message, error.isAbort]).toEqual([400, 'Failed to authenticate.', false]);
  });

  it('reports a network failure with status 0 and the fetch message', () => {
    const error = toConfabError(new ClientResponseError(new TypeError('fetch failed')));
    expect(error.status).toBe(0);
    expect(error.message).toBe('fetch failed');
    expect(error.isAbort).toBe(false);
    expect(error.serverMessage).toBeNull();
    expect(toConfabError(new TypeError('Failed to fetch')).message).toBe('Failed to fetch');
  });

  it('returns a ConfabError unchanged and wraps anything else', () => {
    const original = new ConfabError('User not authenticated', 401);
    expect(toConfabError(original)).toBe(original);
    expect(toConfabError('plain text').message).toBe('plain text');
    expect(toConfabError(null).message).toBe('Something went wrong.');
    const body = toConfabError({ status: 403, message: 'Nope.' });
    expect([body.status, body.message]).toEqual([403, 'Nope.']);
  });
});

describe('confabErrorFromResponse', () => {
  it('reads status and message from a JSON error response', async () => {
    const response = new Response(JSON.stringify({ message: 'Invalid or expired invitation', data: {} }), {
      status: 404,
      headers: { 'Content-Type': 'application/json' },
    });
    const error = await confabErrorFromResponse(response);
    expect([error.status, error.message]).toEqual([404, 'Invalid or expired invitation']);
  });

  it('uses the status text when the body is not JSON', async () => {
    const error = await confabErrorFromResponse(new Response('<html>', { status: 502, statusText: 'Bad Gateway' }));
    expect([error.status, error.message]).toEqual([502, 'Bad Gateway']);
  });
});
