/**
 * A file of a chat as the record API answers it (docs/CONTRACTS.md, Files): `file` is the stored
 * name the server chose (`report_a1b2c3d4e5.pdf`), `original_name` the uploader's own name, for
 * display. `size` is in bytes; `mime_type` follows from the extension.
 */
export interface ChatFile {
  id: string;
  chat: string;
  file: string;
  original_name: string;
  size: number;
  mime_type: string;
  description: string;
  uploaded_by: string;
  created: string;
  updated: string;
  collectionId?: string;
  collectionName?: string;
  expand?: { uploaded_by?: { id: string; username: string; name: string } };
}

/**
 * The name to show for a file: what the uploader called it, else the stored name. It is user
 * input: render it as text, never as HTML.
 *
 * @example fileDisplayName({ ...file, original_name: 'Q3 report.pdf' }) // 'Q3 report.pdf'
 */
export function fileDisplayName(file: Pick<ChatFile, 'original_name' | 'file'>): string {
  const original = typeof file.original_name === 'string' ? file.original_name.trim() : '';
  return original === '' ? file.file : original;
}

/** Who uploaded the file, by display name, else username; '' when the list was not expanded. */
export function fileUploaderName(file: Pick<ChatFile, 'expand'>): string {
  const uploader = file.expand?.uploaded_by;
  if (uploader === undefined) return '';
  return uploader.name.trim() === '' ? uploader.username : uploader.name;
}
