const kilobyte = 1024;
const megabyte = 1024 * kilobyte;

/** File sizes in B, KB or MB (docs/PRODUCT.md §5), e.g. '512 B', '1.5 KB', '12.3 MB'. */
export function formatFileSize(sizeBytes: number): string {
  if (!Number.isFinite(sizeBytes) || sizeBytes < 0) return '0 B';
  if (sizeBytes < kilobyte) return `${Math.round(sizeBytes)} B`;
  const kilobytes = (sizeBytes / kilobyte).toFixed(1);
  // 1048575 bytes would round to '1024.0 KB': show it as '1.0 MB' instead.
  if (sizeBytes < megabyte && Number(kilobytes) < 1024) return `${kilobytes} KB`;
  return `${(sizeBytes / megabyte).toFixed(1)} MB`;
}
