import { ConfabError, confabErrorFromResponse, toConfabError } from '../errors';

/* The two ways an upload travels: XMLHttpRequest (browsers, for upload progress) and fetch. */

export interface UploadRequest {
  url: string;
  headers: Record<string, string>;
  body: FormData;
  signal?: AbortSignal;
  /** Percent of the body sent so far (may be fractional; the caller rounds). */
  onProgress: (percent: number) => void;
}

/** Sends one multipart upload; resolves with the parsed JSON answer, rejects with a ConfabError. */
export type UploadTransport = (request: UploadRequest) => Promise<unknown>;

const networkErrorMessage = 'Network error';

/**
 * fetch has no upload progress, so the only report is 100 once the server has answered.
 */
export function fetchUploadTransport(fetchFunction: typeof fetch): UploadTransport {
  return async (request) => {
    let response: Response;
    try {
      response = await fetchFunction(request.url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal: request.signal ?? null,
      });
    } catch (error) {
      throw toConfabError(error);
    }
    if (response.status >= 400) throw await confabErrorFromResponse(response);
    const answer = parseJson(await response.text(), response.status);
    request.onProgress(100);
    return answer;
  };
}

/**
 * XMLHttpRequest reports `upload.progress` events while the body is sent, which fetch cannot.
 * `XMLHttpRequestClass` is the browser's constructor, or a stand-in in tests.
 */
export function xhrUploadTransport(XMLHttpRequestClass: typeof XMLHttpRequest): UploadTransport {
  return (request) =>
    new Promise<unknown>((resolve, reject) => {
      const { signal } = request;
      if (signal?.aborted) {
        reject(abortError());
        return;
      }
      const xhr = new XMLHttpRequestClass();
      const abort = () => xhr.abort();
      signal?.addEventListener('abort', abort, { once: true });
      const settle = (outcome: () => Promise<unknown>) => {
        signal?.removeEventListener('abort', abort);
        outcome().then(resolve, reject);
      };

      xhr.open('POST', request.url);
      for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable && event.total > 0) request.onProgress((event.loaded / event.total) * 100);
      });
      xhr.addEventListener('load', () => settle(() => readXhrAnswer(xhr, request.onProgress)));
      xhr.addEventListener('error', () => settle(() => Promise.reject(new ConfabError(networkErrorMessage, 0))));
      xhr.addEventListener('abort', () => settle(() => Promise.reject(abortError())));
      xhr.send(request.body);
    });
}

async function readXhrAnswer(xhr: XMLHttpRequest, onProgress: (percent: number) => void): Promise<unknown> {
  if (xhr.status >= 400) {
    // The same reading of the error body as every fetch-based call.
    throw await confabErrorFromResponse(new Response(xhr.responseText === '' ? null : xhr.responseText, { status: xhr.status, statusText: xhr.statusText }));
  }
  if (xhr.status === 0) throw new ConfabError(networkErrorMessage, 0);
  const answer = parseJson(xhr.responseText, xhr.status);
  // The last progress event may stop short of 100 (e.g. no event for the final chunk).
  onProgress(100);
  return answer;
}

function parseJson(text: string, status: number): unknown {
  try {
    return text === '' ? null : JSON.parse(text);
  } catch (error) {
    throw new ConfabError('The server answered with something other than JSON.', status, { cause: error });
  }
}

function abortError(): ConfabError {
  return toConfabError(new DOMException('The upload was aborted.', 'AbortError'));
}
