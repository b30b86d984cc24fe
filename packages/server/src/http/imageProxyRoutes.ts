import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config';
import { ConfabServerError } from '../errors';
import type { Services } from '../services/index';
import { createFetcher, FetchError, type ContentTypePolicy, type Fetcher } from '../agents/tools/fetcher';

/** The image types the proxy passes on, each with its signature (magic bytes). */
const imageSignatures: Record<string, (bytes: Buffer) => boolean> = {
  'image/png': (bytes) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  'image/gif': (bytes) => ['GIF87a', 'GIF89a'].includes(bytes.subarray(0, 6).toString('latin1')),
  'image/webp': (bytes) => bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP',
};

export const imagePolicy: ContentTypePolicy = (mediaType) => {
  const canonical = mediaType === 'image/jpg' || mediaType === 'image/pjpeg' ? 'image/jpeg' : mediaType;
  return imageSignatures[canonical] === undefined ? `it is ${mediaType || 'of no declared type'}, not a PNG, JPEG, GIF or WebP image` : undefined;
};

/** The image type whose signature the bytes carry, when it is the declared one; else undefined. */
export function verifiedImageType(mediaType: string, bytes: Buffer): string | undefined {
  const canonical = mediaType === 'image/jpg' || mediaType === 'image/pjpeg' ? 'image/jpeg' : mediaType;
  return imageSignatures[canonical]?.(bytes) === true ? canonical : undefined;
}

/** Refusals that are the asker's URL's fault answer 400; the remote site's failures 404. */
const askerFaults = new Set(['invalid_url', 'unsupported_scheme', 'refused_address', 'refused_port', 'unsupported_type', 'too_large']);

/**
 * `GET /api/image-proxy?url=…` (docs/SECURITY.md C9): a remote image fetched by the server through
 * the guarded fetcher, so reading a message never tells a third party the reader's address. For
 * signed-in people (the Authorization header, or a file token in `token` as `<img>` cannot send
 * headers); PNG, JPEG, GIF and WebP up to 5 MB whose signature agrees with their Content-Type;
 * served with nosniff, a CSP that allows nothing, and private caching.
 */
export function registerImageProxyRoutes(app: FastifyInstance, services: Services, config: ServerConfig, fetcher: Fetcher = createFetcher({ allowHosts: config.fetchAllowHosts })): void {
  app.get<{ Querystring: { url?: string; token?: string } }>('/api/image-proxy', async (request, reply) => {
    const token = typeof request.query.token === 'string' && request.query.token !== '' ? request.query.token : undefined;
    const user = request.confabAuth.user ?? (token === undefined ? undefined : await services.accounts.authenticateFileToken(token));
    if (user === undefined) throw new ConfabServerError('unauthorized', 'Sign in to load images.');
    const url = typeof request.query.url === 'string' ? request.query.url : '';
    if (url === '') throw new ConfabServerError('badRequest', 'Give the image address in url.');
    let fetched;
    try {
      fetched = await fetcher.fetch(url, imagePolicy);
    } catch (error) {
      if (!(error instanceof FetchError)) throw error;
      throw new ConfabServerError(askerFaults.has(error.code) ? 'badRequest' : 'notFound', error.message);
    }
    const type = verifiedImageType(fetched.mediaType === 'image/jpg' ? 'image/jpeg' : fetched.mediaType, fetched.body);
    if (type === undefined) throw new ConfabServerError('badRequest', `The image at that address is not the ${fetched.mediaType} it claims to be.`);
    return reply
      .header('content-type', type)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'private, max-age=3600')
      .header('content-disposition', 'inline')
      .send(fetched.body);
  });
}
