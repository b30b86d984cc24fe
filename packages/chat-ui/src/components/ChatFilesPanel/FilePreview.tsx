import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import {
  fileDisplayName,
  fileUploaderName,
  formatFileSize,
  isAudioFile,
  messages,
  type ChatFile,
  type TimeAgoLocale,
} from '@confab/client';
import { useModalDialog } from '../../internal/useModalDialog';
import { useConfabClient } from '../../provider/hooks';
import { Alert } from '../Alert/Alert';
import { Button } from '../Button/Button';
import { TimeAgo } from '../Message/TimeAgo';

export interface FilePreviewProps {
  file: ChatFile;
  /** The current file token; audio plays from a tokened URL. */
  token: string | null;
  /** Getting a file token failed (audio cannot play without one). */
  tokenFailed: boolean;
  /** The download control (FileDownload). */
  download: ReactNode;
  onClose: () => void;
  locale?: TimeAgoLocale | undefined;
}

/** Audio files are recognised by extension (docs/PRODUCT.md §5), under either name. */
export const isAudio = (file: Pick<ChatFile, 'file' | 'original_name'>) => isAudioFile(file.file) || isAudioFile(file.original_name ?? '');

/**
 * docs/PRODUCT.md §2 preview modal: an audio player for audio files, and for every file its details
 * and Download. Escape, the backdrop and Close close it.
 */
export function FilePreview({ file, token, tokenFailed, download, onClose, locale = 'en' }: FilePreviewProps) {
  const client = useConfabClient();
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const onKeyDown = useModalDialog(dialogRef, { onClose });
  const name = fileDisplayName(file);
  const audio = isAudio(file);
  // Fixed once known: a newer token in src would make the player start over. When the token in
  // it expires mid-listen (a long file fetched in ranges), the player gets a fresh one and goes
  // on from where it was; only a failure with a fresh token is shown.
  const [audioSrc, setAudioSrc] = useState<string | null>(() => (audio && token !== null ? client.files.fileUrl(file, { token }) : null));
  const [playFailed, setPlayFailed] = useState(false);
  const audioRef = useRef<HTMLAudioElement>(null);
  const playing = useRef(false);
  const resumeAt = useRef<{ time: number; play: boolean } | null>(null);
  const renewedFor = useRef<string | null>(null);
  useEffect(() => {
    if (audio && audioSrc === null && token !== null) setAudioSrc(client.files.fileUrl(file, { token }));
  }, [audio, audioSrc, token, client, file]);

  const onAudioError = () => {
    const failedSrc = audioSrc;
    if (failedSrc === null || renewedFor.current === failedSrc) {
      setPlayFailed(true);
      return;
    }
    renewedFor.current = failedSrc;
    const element = audioRef.current;
    resumeAt.current = { time: element?.currentTime ?? 0, play: playing.current };
    client.files
      .fileToken()
      .then((fresh) => {
        const next = client.files.fileUrl(file, { token: fresh });
        if (next === failedSrc) setPlayFailed(true);
        else setAudioSrc(next);
      })
      .catch(() => setPlayFailed(true));
  };
  const onLoadedMetadata = () => {
    const element = audioRef.current;
    const resume = resumeAt.current;
    if (element === null || resume === null) return;
    resumeAt.current = null;
    element.currentTime = resume.time;
    if (resume.play) void element.play().catch(() => undefined);
  };
  const showPlayer = audio && audioSrc !== null && !playFailed;
  const showPlayError = audio && (playFailed || (audioSrc === null && tokenFailed));

  return (
    <div
      className="cf-dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div ref={dialogRef} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} className="cf-dialog cf-file-preview" onKeyDown={onKeyDown}>
        <header className="cf-dialog__header">
          <h3 id={titleId} className="cf-dialog__title">
            {name}
          </h3>
          <button type="button" className="cf-dialog__close" aria-label="Close preview" onClick={onClose}>
            ×
          </button>
        </header>
        {showPlayer ? (
          <audio
            ref={audioRef}
            className="cf-file-preview__player"
            controls
            preload="metadata"
            src={audioSrc}
            aria-label={`Audio player for ${name}`}
            onPlay={() => (playing.current = true)}
            onPause={() => (playing.current = false)}
            onLoadedMetadata={onLoadedMetadata}
            onError={onAudioError}
          />
        ) : null}
        {showPlayError ? <Alert>{messages.playAudioFailed}</Alert> : null}
        <dl className="cf-file-preview__details">
          <dt>Size</dt>
          <dd>{formatFileSize(file.size)}</dd>
          <dt>Type</dt>
          <dd>{file.mime_type || 'Unknown'}</dd>
          <dt>Uploaded by</dt>
          <dd>{fileUploaderName(file) || 'Unknown user'}</dd>
          <dt>Uploaded</dt>
          <dd>
            <TimeAgo date={file.created} locale={locale} />
          </dd>
          {(file.description ?? '').trim() !== '' ? (
            <>
              <dt>Description</dt>
              <dd>{file.description}</dd>
            </>
          ) : null}
        </dl>
        <div className="cf-dialog__actions">
          {download}
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    </div>
  );
}
