/** navigator.clipboard.writeText, or a rejection where there is no clipboard (insecure origins, old browsers). */
export function copyToClipboard(text: string): Promise<void> {
  if (typeof navigator === 'undefined' || navigator.clipboard === undefined) return Promise.reject(new Error('No clipboard'));
  return navigator.clipboard.writeText(text);
}
