export interface UploadZoneProps {
  id?: string;
}

/** Placeholder of spec §2 Upload zone; choosing, dropping and progress arrive with the files issue. */
export function UploadZone({ id }: UploadZoneProps) {
  return (
    <div id={id} className="cf-upload-zone" role="region" aria-label="Upload zone">
      <p>Drag and drop files here, or</p>
      <button type="button" className="cf-button cf-button--secondary" disabled>
        Choose Files
      </button>
      <p className="cf-upload-zone__note">File uploads are not available yet.</p>
    </div>
  );
}
