import type { MessageFile } from '@confab/client';

const kindByType: Record<string, string> = {
  'application/pdf': 'PDF',
  'text/csv': 'CSV',
  'text/plain': 'Text',
  'text/markdown': 'Markdown',
  'application/json': 'JSON',
  'text/html': 'HTML',
  'application/xml': 'XML',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel spreadsheet',
};

/** A short name of the file's type for the card ('CSV', 'PNG image', 'MP3 audio'). */
export function fileKindLabel(file: Pick<MessageFile, 'type' | 'name'>): string {
  const known = kindByType[file.type];
  if (known !== undefined) return known;
  const extension = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.') + 1).toUpperCase() : '';
  if (file.type.startsWith('image/')) return `${extension || 'Image'} image`.trim();
  if (file.type.startsWith('audio/')) return `${extension || 'Audio'} audio`.trim();
  return extension || 'File';
}

/** What the server serves inline (docs/CONTRACTS.md, Files): PDF, audio and raster images. Never SVG. */
export function opensInBrowser(file: Pick<MessageFile, 'type'>): boolean {
  if (file.type === 'image/svg+xml') return false;
  return file.type === 'application/pdf' || file.type.startsWith('image/') || file.type.startsWith('audio/');
}
