/** A raw HTTP call, for asserting exact statuses and bodies without the SDK in between. */
export interface RawResponse {
  status: number;
  body: unknown;
  text: string;
  contentType: string;
}

export async function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string; contentType?: string } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers['authorization'] = options.token;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined || options.contentType !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text, contentType: response.headers.get('content-type') ?? '' };
}
