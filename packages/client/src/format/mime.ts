/** Extensions of docs/PRODUCT.md §9 mapped to their mime types. */
export const mimeTypes = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  md: 'text/markdown',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  html: 'text/html',
  xml: 'application/xml',
  log: 'text/plain',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  flac: 'audio/flac',
} as const;

export const defaultMimeType = 'application/octet-stream';

/**
 * The mime type for a file name or extension ('report.PDF', '.pdf' or 'pdf'); unknown ones are
 * application/octet-stream.
 */
export function mimeFromExtension(fileNameOrExtension: string): string {
  const lowered = fileNameOrExtension.trim().toLowerCase();
  const extension = lowered.includes('.') ? lowered.slice(lowered.lastIndexOf('.') + 1) : lowered;
  return Object.hasOwn(mimeTypes, extension) ? mimeTypes[extension as keyof typeof mimeTypes] : defaultMimeType;
}

/**
 * The raster image types a server's operator may allow (docs/CONTRACTS.md, File messages and
 * system lines), kept apart from `mimeTypes` so apps that never see them do not carry them.
 */
export const imageMimeTypes = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp' } as const;

/** An image's mime type by its extension ('.png'), or undefined for anything else. */
export function imageMimeType(extension: string): string | undefined {
  const lowered = extension.toLowerCase();
  return Object.hasOwn(imageMimeTypes, lowered) ? imageMimeTypes[lowered as keyof typeof imageMimeTypes] : undefined;
}
