import { constants } from '../constants';
import { messages } from './messages';

/** The lower-cased extension with its dot ('.pdf'), or '' when the name has none. */
export function fileExtension(fileName: string): string {
  const dotIndex = fileName.lastIndexOf('.');
  if (dotIndex <= 0 || dotIndex === fileName.length - 1) return '';
  return fileName.slice(dotIndex).toLowerCase();
}

/**
 * Every extension an upload may have: the documents of docs/PRODUCT.md §5 plus the audio types
 * (docs/CONTRACTS.md, Files), in the order the 'Supported formats' text names them.
 */
export const uploadExtensions: readonly string[] = [...constants.upload.allowedExtensions, ...constants.upload.audioExtensions];

/**
 * Whether the name's extension may be uploaded: the default list, plus the image types a server
 * added (`extraExtensions`, its config's `upload_extensions`).
 */
export function isAllowedUpload(fileName: string, extraExtensions: readonly string[] = []): boolean {
  const extension = fileExtension(fileName);
  return uploadExtensions.includes(extension) || (extraExtensions.includes(extension) && isImageExtension(extension));
}

/** One of the raster image types a server may allow (never SVG). */
export function isImageExtension(extension: string): boolean {
  return (constants.upload.imageExtensions as readonly string[]).includes(extension.toLowerCase());
}

/** Audio files get a preview player (docs/PRODUCT.md §5: mp3, wav, ogg, m4a, flac). */
export function isAudioFile(fileName: string): boolean {
  return (constants.upload.audioExtensions as readonly string[]).includes(fileExtension(fileName));
}

/**
 * Checks one file before upload: extension allow-list (documents and audio, and the server's
 * `extraExtensions` images), then the 100 MB limit.
 */
export function validateUpload(file: { name: string; size: number }, extraExtensions: readonly string[] = []): string | null {
  if (!isAllowedUpload(file.name, extraExtensions)) return messages.unsupportedFileFormat(fileExtension(file.name) || file.name, extraExtensions.filter(isImageExtension));
  if (file.size > constants.upload.maxSizeBytes) return messages.fileTooLarge(file.name);
  return null;
}
