import { fileDisplayName, messages, type ChatFile } from '@confab/client';
import { useConfabClient } from '../../provider/hooks';

export interface FileDownloadProps {
  /** The file record, or as much of it as a link needs (a file message's card has no more). */
  file: Pick<ChatFile, 'id' | 'file' | 'original_name'>;
  /** The current file token; without one the control fetches a token when clicked. */
  token: string | null;
  /** Asks for a file token now. */
  requestToken: () => Promise<string>;
  /** Shows an error text (docs/PRODUCT.md §8: 'Failed to download file'). */
  onError: (text: string) => void;
  className?: string | undefined;
}

/**
 * Download as a plain link (`?download=1&token=…`) whenever a file token is at hand, so the
 * browser handles it synchronously; otherwise a button that gets a token first.
 */
export function FileDownload({ file, token, requestToken, onError, className = 'cf-chip' }: FileDownloadProps) {
  const client = useConfabClient();
  const name = fileDisplayName(file);
  if (token !== null) {
    return (
      <a className={className} href={client.files.fileUrl(file, { download: true, token })} download={name} aria-label={`Download ${name}`}>
        Download
      </a>
    );
  }
  const downloadWithNewToken = async () => {
    try {
      const fresh = await requestToken();
      startDownload(client.files.fileUrl(file, { download: true, token: fresh }), name);
    } catch {
      onError(messages.downloadFileFailed);
    }
  };
  return (
    <button type="button" className={className} aria-label={`Download ${name}`} onClick={() => void downloadWithNewToken()}>
      Download
    </button>
  );
}

function startDownload(href: string, name: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}
