import { describe, expect, it } from 'vitest';
import { toConfabError } from '../errors';
import { RecordApi } from './RecordApi';
import { ResponseError } from './ResponseError';

describe('ResponseError', () => {
  it('carries the fields and the name of the SDK ClientResponseError', () => {
    const body = { status: 400, message: 'Failed to create record.', data: { email: { code: 'validation_is_email', message: 'Must be a valid email address.' } } };
    const error = new ResponseError({ url: 'http://x/api/collections/users/records', status: 400, response: body });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'ClientResponseError 400', message: 'Failed to create record.', url: 'http://x/api/collections/users/records', status: 400, isAbort: false });
    expect(error.response).toBe(body);
    expect(error.data).toBe(body);
    expect(new ResponseError({ status: 404, data: { message: 'Gone.' } }).response).toEqual({ message: 'Gone.' });
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ status: 400, response: body });
  });

  it('wraps what fetch threw: status 0, the original error, aborts flagged', () => {
    const failure = new TypeError('fetch failed');
    const network = new ResponseError(failure);
    expect([network.status, network.isAbort, network.originalError, network.cause, network.message]).toEqual([0, false, failure, failure, 'Something went wrong.']);
    expect(new ResponseError(new DOMException('The operation was aborted.', 'AbortError')).isAbort).toBe(true);
    expect(new ResponseError(new Error('Aborted')).isAbort).toBe(true);
    expect(new ResponseError({ isAbort: true }).message).toBe('The request was aborted.');
    expect(new ResponseError().response).toEqual({});
  });
});

/** The ResponseError `promise` rejects with. */
async function rejection(promise: Promise<unknown>): Promise<ResponseError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ResponseError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

/** A RecordApi whose fetch answers with `answer` (or throws it). */
function apiAnswering(answer: () => Response | Promise<Response>) {
  return new RecordApi('http://api.test', undefined, { fetch: async () => answer() });
}

describe('RecordApi.send failures', () => {
  it('rejects a status >= 400 with its status and JSON body', async () => {
    const body = { status: 403, message: 'You are not allowed to perform this request.', data: {} };
    const error = await rejection(apiAnswering(() => Response.json(body, { status: 403 })).send('/api/x'));
    expect(error).toBeInstanceOf(ResponseError);
    expect(error).toMatchObject({ status: 403, response: body, url: 'http://api.test/api/x', message: body.message });
    expect(toConfabError(error)).toMatchObject({ status: 403, message: body.message });
  });

  it('answers {} for a body that is not JSON, and so rejects with an empty response', async () => {
    expect(await apiAnswering(() => new Response(null, { status: 204 })).send('/api/x')).toEqual({});
    const error = await rejection(apiAnswering(() => new Response('<html>', { status: 502 })).send('/api/x'));
    expect([error.status, error.response, toConfabError(error).message]).toEqual([502, {}, 'Something went wrong.']);
  });

  it('rejects a network failure with status 0 and the fetch message', async () => {
    const error = await rejection(apiAnswering(() => Promise.reject(new TypeError('fetch failed'))).send('/api/x'));
    expect([error.status, error.isAbort]).toEqual([0, false]);
    expect(toConfabError(error)).toMatchObject({ status: 0, message: 'fetch failed', isAbort: false });
  });

  it('rejects an aborted request with isAbort, through the real fetch', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(new RecordApi('http://127.0.0.1:9').send('/api/x', { signal: controller.signal }));
    expect(error).toBeInstanceOf(ResponseError);
    expect([error.status, error.isAbort]).toEqual([0, true]);
    expect(toConfabError(error).isAbort).toBe(true);
  });
});
