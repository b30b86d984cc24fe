import { useRef, useState, type DragEvent } from 'react';
import { formatFileSize, messages, uploadExtensions, type ChatFile } from '@confab/client';
import { Button } from '../Button/Button';
import { useUploads, type UploadItem } from './useUploads';

export interface UploadZoneProps {
  /** The chat the files go to. */
  chatId: string;
  id?: string | undefined;
  /** Hides the zone without forgetting uploads in progress or the recent list. */
  hidden?: boolean | undefined;
  /** Called once per file the server stored (e.g. to refresh an open files panel). */
  onUploaded?: ((file: ChatFile) => void) | undefined;
}

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * docs/PRODUCT.md §2 Upload zone: Choose Files or drag and drop (several files at once), a live
 * percentage per file, errors per file with the texts of docs/PRODUCT.md §5, and the list of
 * recently uploaded files.
 */
export function UploadZone({ chatId, id, hidden = false, onUploaded }: UploadZoneProps) {
  const { items, start, dismiss, retry } = useUploads(chatId, onUploaded);
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  // dragenter/dragleave fire for every child crossed; the zone is left when the count is back at 0.
  const dragDepth = useRef(0);

  const uploading = items.filter((item) => item.status === 'uploading');
  const failed = items.filter((item) => item.status === 'failed');
  const done = items.filter((item) => item.status === 'done').reverse();

  const onDragEnter = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    dragDepth.current += 1;
    setDragging(true);
  };
  const onDragOver = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    // Without preventDefault the browser would open the dropped file instead.
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDragLeave = () => {
    dragDepth.current = Math.max(0, dragDepth.current - 1);
    if (dragDepth.current === 0) setDragging(false);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    dragDepth.current = 0;
    setDragging(false);
    start(Array.from(event.dataTransfer?.files ?? []));
  };

  return (
    <div
      id={id}
      hidden={hidden}
      className={['cf-upload-zone', dragging && 'cf-upload-zone--dragging'].filter(Boolean).join(' ')}
      role="region"
      aria-label="Upload zone"
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      <p>{dragging ? 'Drop the files to upload them' : 'Drag and drop files here, or'}</p>
      <Button variant="secondary" onClick={() => inputRef.current?.click()}>
        Choose Files
      </Button>
      {/* The button is the control people use; the input only opens the system file picker. */}
      <input
        ref={inputRef}
        type="file"
        multiple
        tabIndex={-1}
        className="cf-visually-hidden"
        aria-label="Choose files to upload"
        accept={uploadExtensions.join(',')}
        onChange={(event) => {
          start(Array.from(event.target.files ?? []));
          // Choosing the same file again must fire change again.
          event.target.value = '';
        }}
      />
      <p className="cf-upload-zone__note">{`Supported formats: ${messages.supportedFormats}. Up to 100 MB per file.`}</p>

      {uploading.length > 0 ? (
        <ul className="cf-upload-list" aria-label="Uploading">
          {uploading.map((item) => (
            <UploadProgressRow key={item.key} item={item} />
          ))}
        </ul>
      ) : null}

      {failed.length > 0 ? (
        <ul className="cf-upload-list" aria-label="Failed uploads">
          {failed.map((item) => (
            <li key={item.key} className="cf-upload-list__item cf-upload-list__item--failed">
              <span role="alert">{item.error}</span>
              {item.retryable ? (
                <button type="button" className="cf-chip" aria-label={`Retry uploading ${item.name}`} onClick={() => retry(item.key)}>
                  Retry
                </button>
              ) : null}
              <button type="button" className="cf-upload-list__dismiss" aria-label={`Dismiss the error for ${item.name}`} onClick={() => dismiss(item.key)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}

      {done.length > 0 ? (
        <div className="cf-upload-zone__recent">
          <h3>Recently uploaded</h3>
          <ul className="cf-upload-list" aria-label="Recently uploaded">
            {done.map((item) => (
              <li key={item.key} className="cf-upload-list__item">
                <span className="cf-upload-list__name">{item.name}</span>
                {item.file ? <span className="cf-upload-list__size">{formatFileSize(item.file.size)}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

function UploadProgressRow({ item }: { item: UploadItem }) {
  return (
    <li className="cf-upload-list__item">
      <span className="cf-upload-list__name">{item.name}</span>
      <span
        className="cf-progress"
        role="progressbar"
        aria-label={`Uploading ${item.name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={item.progress}
      >
        <span className="cf-progress__bar" style={{ width: `${item.progress}%` }} />
      </span>
      <span className="cf-upload-list__percent">{item.progress}%</span>
    </li>
  );
}
