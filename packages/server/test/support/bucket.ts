/**
 * A local S3-protocol server for the file store tests: s3rver, on a free port, in a temp folder,
 * with one bucket. Production targets Amazon S3, MinIO, Cloudflare R2, Ceph and the like; s3rver
 * is only what is installable next to the tests (see docs/ARCHITECTURE.md, files).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { ServerOptions } from '../../src/index';
import { createS3Client } from '../../src/services/files/s3FileStore';

/** s3rver's built-in account; any other key is refused. */
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestBucket {
  bucket: string;
  endpoint: string;
  /** What startServer needs to keep its files here, under `prefix`. */
  serverOptions(prefix?: string): Pick<ServerOptions, 'filesS3Bucket' | 'filesS3Client'>;
  /** The SDK's standard environment for this bucket, as an operator would set it (for the CLI). */
  environment(prefix?: string): Record<string, string>;
  /** A client of its own, to look at what is stored. */
  client: S3Client;
  /** Every key in the bucket, sorted. */
  keys(): Promise<string[]>;
  /** Takes the S3 server down (an outage); `start` brings it back on the same port with the same objects. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * s3rver removes the folders a deletion empties, and two deletions at once (a multi-object
 * delete) race to remove the same folder and fail; real stores have no folders. Its deletions run
 * one after another here.
 */
function serialiseDeletes(server: S3rver): S3rver {
  const deleteObject = server.store.deleteObject.bind(server.store);
  let previous: Promise<void> = Promise.resolve();
  server.store.deleteObject = (bucketName, key) => {
    const next = previous.then(() => deleteObject(bucketName, key));
    previous = next.catch(() => undefined);
    return next;
  };
  return server;
}

export async function startTestBucket(bucket = 'confab-test'): Promise<TestBucket> {
  const directory = mkdtempSync(join(tmpdir(), 'confab-s3-'));
  const s3rver = (port: number) => serialiseDeletes(new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket }] }));
  let server = s3rver(0);
  const { port } = await server.run();
  let running = true;
  const endpoint = `http://127.0.0.1:${port}`;
  const clientOptions = { endpoint, region: 'us-east-1', credentials, maxAttempts: 1 };
  const client = createS3Client(clientOptions, {});
  return {
    bucket,
    endpoint,
    serverOptions: (prefix = '') => ({ filesS3Bucket: `${bucket}/${prefix}`, filesS3Client: clientOptions }),
    environment: (prefix = '') => ({
      CONFAB_FILES_S3_BUCKET: `${bucket}/${prefix}`,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_ENDPOINT_URL_S3: endpoint,
    }),
    client,
    async keys() {
      const answer = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (answer.Contents ?? []).map((object) => object.Key ?? '').sort();
    },
    async stop() {
      if (!running) return;
      running = false;
      await server.close();
    },
    async start() {
      if (running) return;
      server = s3rver(port);
      await server.run();
      running = true;
    },
    async close() {
      client.destroy();
      if (running) await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
