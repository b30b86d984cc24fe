import { randomBytes } from 'node:crypto';
import { constants, fileExtension, isImageExtension, messages, stripUnsafeCharacters, uploadExtensions } from '@confab/client/rules';
import { validationError, type ConfabServerError, type FieldError } from '../../errors';

/**
 * What may be uploaded (docs/PRODUCT.md §5): the extensions of @confab/client's `uploadExtensions`
 * (documents and the audio types the files panel previews), at most 100 MB, and content that agrees
 * with its extension. The extension list, mime map and texts are the client's, so both sides agree.
 */
export const uploadMaximumBytes = constants.upload.maxSizeBytes;
export const descriptionMaximum = 1000;
/** The first bytes kept while streaming, enough for every signature and the text check. */
export const sniffBytes = 8192;

/**
 * The client's file name reduced to a display name: the last path part (either slash), no
 * control, bidi or zero-width characters (`stripUnsafeCharacters`: `x\u202Egpj.html` would read
 * as a picture), no percent-encoded separators left to decode later, at most 255 characters.
 */
export function cleanOriginalName(clientName: string): string {
  const lastPart = stripUnsafeCharacters(clientName).split(/[/\\]/).at(-1) ?? '';
  const printable = lastPart.trim();
  const withoutDots = printable.replace(/^\.+/, '');
  const name = withoutDots === '' ? 'file' : withoutDots;
  if (name.length <= 255) return name;
  const extension = fileExtension(name);
  return `${name.slice(0, 255 - extension.length)}${extension}`;
}

/** Why an upload is refused: PocketBase-shaped field errors of the `file` field. */
export const uploadProblems = {
  unsupported: (extension: string, addedImages: readonly string[] = []): FieldError => ({
    code: 'validation_invalid_file_type',
    message: messages.unsupportedFileFormat(extension || '(none)', addedImages),
  }),
  mismatch: (extension: string): FieldError => ({
    code: 'validation_invalid_file_content',
    message: `The file content does not match its ${extension} extension.`,
  }),
  empty: (): FieldError => ({ code: 'validation_required', message: 'The file is empty.' }),
} as const;

function refusal(problem: FieldError): ConfabServerError {
  return validationError(problem.message, { file: problem });
}

/** The extension an upload is judged by: that of its cleaned display name ('' when none). */
export function uploadExtension(clientName: string): string {
  return fileExtension(cleanOriginalName(clientName));
}

/**
 * The 400 for an extension outside the allow-list, or undefined. The upload parser asks as soon
 * as a file part starts, before a byte of it is written.
 */
export function refuseExtension(extension: string, addedExtensions: readonly string[] = []): ConfabServerError | undefined {
  const allowed = uploadExtensions.includes(extension) || (addedExtensions.includes(extension) && isImageExtension(extension));
  return allowed ? undefined : refusal(uploadProblems.unsupported(extension, addedExtensions.filter(isImageExtension)));
}

/**
 * The 400 for content that contradicts its extension (`contentMatchesExtension`), or undefined.
 * The upload parser asks once the first `sniffBytes` (or the whole, shorter file) have arrived,
 * before writing them.
 */
export function refuseContent(extension: string, head: Buffer, complete: boolean): ConfabServerError | undefined {
  return contentMatchesExtension(extension, head, complete) ? undefined : refusal(uploadProblems.mismatch(extension));
}

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';

function randomSuffix(length: number): string {
  const bytes = randomBytes(length);
  let suffix = '';
  for (const byte of bytes) suffix += alphabet[byte % alphabet.length];
  return suffix;
}

/**
 * PocketBase's stored name: `{snake_base}_{10 random [a-z0-9]}{ext}`, the base cut to 100
 * characters of [a-z0-9_]. It is all the disk ever sees of the client's name.
 */
export function storedFileName(originalName: string): string {
  const extension = fileExtension(originalName);
  const base = originalName.slice(0, originalName.length - extension.length);
  const snake = base
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 100);
  return `${snake === '' ? 'file' : snake}_${randomSuffix(10)}${extension}`;
}

export const storedFileNamePattern = /^[a-z0-9_]{1,100}_[a-z0-9]{10}\.[a-z0-9]{1,5}$/;

function startsWith(head: Buffer, signature: readonly number[], offset = 0): boolean {
  if (head.length < offset + signature.length) return false;
  return signature.every((byte, index) => head[offset + index] === byte);
}

const ascii = (text: string): number[] => [...text].map((character) => character.charCodeAt(0));

/** Text files hold no NUL bytes and decode as UTF-8 (a cut multi-byte character at the end is fine). */
function looksLikeText(head: Buffer, complete: boolean): boolean {
  if (head.includes(0)) return false;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    decoder.decode(head, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}

/** Markup that a browser would render as a page, found at the start of a non-HTML text file. */
function looksLikeHtml(head: Buffer): boolean {
  const start = head.subarray(0, 1024).toString('utf8').replace(/^\uFEFF/, '').trimStart().toLowerCase();
  return /^<(!doctype html|html|head|body|script|iframe|svg)\b/.test(start);
}

/**
 * True when the first bytes agree with the extension: binary formats by their signature, text
 * formats by being text. An .html renamed .pdf, or an executable renamed .txt, is refused.
 * `complete` tells whether `head` is the whole file (so a short file is not cut mid-character).
 */
export function contentMatchesExtension(extension: string, head: Buffer, complete: boolean): boolean {
  switch (extension) {
    case '.pdf':
      return startsWith(head, ascii('%PDF-'));
    case '.docx':
    case '.xlsx':
      return startsWith(head, [0x50, 0x4b, 0x03, 0x04]);
    case '.mp3':
      return startsWith(head, ascii('ID3')) || (head.length >= 2 && head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0);
    case '.wav':
      return startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WAVE'), 8);
    case '.ogg':
      return startsWith(head, ascii('OggS'));
    case '.flac':
      return startsWith(head, ascii('fLaC'));
    case '.m4a':
      return startsWith(head, ascii('ftyp'), 4);
    // Images the operator added (config uploadExtensions): their signatures, so a page or a script
    // renamed .png is refused before it could be served as an image.
    case '.png':
      return startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case '.jpg':
    case '.jpeg':
      return startsWith(head, [0xff, 0xd8, 0xff]);
    case '.gif':
      return startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'));
    case '.webp':
      return startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8);
    case '.html':
    case '.xml':
      return looksLikeText(head, complete);
    case '.txt':
    case '.csv':
    case '.json':
    case '.md':
    case '.log':
      return looksLikeText(head, complete) && !looksLikeHtml(head);
    default:
      return false;
  }
}
