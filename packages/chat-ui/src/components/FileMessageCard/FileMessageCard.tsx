import { useState } from 'react';
import { formatFileSize, isAudioFile, isImageExtension, messages, type MessageFile } from '@confab/client';
import { useConfabClient } from '../../provider/hooks';
import { Alert } from '../Alert/Alert';
import { FileDownload } from '../ChatFilesPanel/FileDownload';
import { useFileToken } from '../ChatFilesPanel/useFileToken';
import { fileKindLabel, opensInBrowser } from './fileKind';

export interface FileMessageCardProps {
  /** The file a file message announces (its `file`). */
  file: MessageFile;
}

/**
 * The card of a file message (docs/CONTRACTS.md, File messages and system lines): the file's
 * name, type and size, Download, and Preview for what a browser shows in place (PDF, images,
 * audio). Audio plays in the card, as in the files panel; images the server allows show inline.
 * A deleted file says 'File deleted' and offers nothing. Links carry a file token, as the files
 * panel's do. Needs a ConfabProvider.
 */
export function FileMessageCard({ file }: FileMessageCardProps) {
  const name = file.name || file.file;
  const deleted = file.deleted === true;
  return (
    <section className={['cf-file-card', deleted && 'cf-file-card--deleted'].filter(Boolean).join(' ')} aria-label={`File ${name}`}>
      <span className="cf-file-card__icon" aria-hidden="true">
        {deleted ? '⊘' : '📄'}
      </span>
      <div className="cf-file-card__main">
        <span className="cf-file-card__name">{name}</span>
        <span className="cf-file-card__meta">
          {fileKindLabel(file)} · {formatFileSize(file.size)}
        </span>
        {deleted ? <p className="cf-file-card__deleted">File deleted</p> : <FileCardActions file={file} name={name} />}
      </div>
    </section>
  );
}

/** Download, Preview, and the inline player or picture; mounted only while the file exists. */
function FileCardActions({ file, name }: { file: MessageFile; name: string }) {
  const client = useConfabClient();
  const { token, failed, request } = useFileToken();
  const [error, setError] = useState<string | null>(null);
  const record = { id: file.file_id, file: file.file, original_name: name };
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.')).toLowerCase() : '';
  const audio = isAudioFile(name);
  const image = isImageExtension(extension) && file.type.startsWith('image/') && file.type !== 'image/svg+xml';
  const source = token === null ? null : client.files.fileUrl(record, { token });
  return (
    <>
      {audio && source !== null ? <audio className="cf-file-card__player" controls preload="none" src={source} aria-label={`Audio player for ${name}`} /> : null}
      {image && source !== null ? <img className="cf-file-card__image" src={source} alt={name} loading="lazy" /> : null}
      <div className="cf-file-card__actions">
        <FileDownload file={record} token={token} requestToken={request} onError={setError} className="cf-chip" />
        {opensInBrowser(file) && source !== null ? (
          <a className="cf-chip" href={source} target="_blank" rel="noopener noreferrer" aria-label={`Preview ${name}`}>
            Preview
          </a>
        ) : null}
      </div>
      {error !== null ? <Alert>{error}</Alert> : null}
      {audio && failed && token === null ? <Alert>{messages.playAudioFailed}</Alert> : null}
    </>
  );
}
