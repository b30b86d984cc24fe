import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { DiskFileStore } from './diskFileStore';
import { parseBucket, type FileStore } from './fileStore';

/**
 * The data dir's disk unless a bucket is configured (CONFAB_FILES_S3_BUCKET); then the bucket,
 * reached with the SDK's standard configuration plus `clientOptions`. The AWS SDK is loaded only
 * then: a server on its disk never pays for it.
 */
export async function openFileStore(options: {
  dataDir: string;
  s3Bucket: string | undefined;
  s3ClientOptions?: S3ClientConfig | undefined;
  onError?: (problem: string) => void;
}): Promise<FileStore> {
  if (options.s3Bucket === undefined) return new DiskFileStore(options.dataDir);
  const { createS3Client, S3FileStore } = await import('./s3FileStore');
  const { bucket, prefix } = parseBucket(options.s3Bucket);
  return new S3FileStore({ client: createS3Client(options.s3ClientOptions), bucket, prefix, ...(options.onError === undefined ? {} : { onError: options.onError }) });
}
