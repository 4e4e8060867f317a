// The image upload field: a file input for 2–5 photos and a tile per photo with its progress or thumbnail.
import type { ChangeEvent } from 'react';
import { percentSent, type PhotoUpload } from './uploads.js';
import styles from './addProduct.module.css';

/** Bytes sent, then the wait while the media service makes the card and thumbnail variants. */
function uploadHint(photo: PhotoUpload): string {
  if (!photo.measured) return 'Uploading…';
  const percent = percentSent(photo);
  return percent >= 100 ? 'Processing…' : `${percent}%`;
}

interface PhotoPickerProps {
  id: string;
  photos: PhotoUpload[];
  disabled?: boolean;
  onChoose: (files: File[]) => void;
  onRemove: (key: string) => void;
}

export function PhotoPicker({ id, photos, disabled, onChoose, onRemove }: PhotoPickerProps) {
  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.target.files ?? []);
    // Cleared so that choosing the same files again is still a change.
    event.target.value = '';
    if (files.length > 0) onChoose(files);
  }

  return (
    <div className={styles.photos}>
      <label htmlFor={id} className={styles.dropzone}>
        <span className={styles.dropzoneTitle}>Choose photos</span>
        <span className={styles.hint}>2 to 5 image files. They upload as soon as you choose them.</span>
      </label>
      <input
        id={id}
        name="images"
        type="file"
        accept="image/*"
        multiple
        disabled={disabled}
        onChange={handleChange}
        className={styles.fileInput}
      />

      {photos.length > 0 && (
        <ul className={styles.tiles} aria-label="Chosen photos">
          {photos.map((photo) => (
            <li key={photo.key} className={styles.tile} data-status={photo.status}>
              {photo.status === 'done' && photo.image ? (
                <img
                  src={photo.image.thumb_url}
                  alt={photo.name}
                  className={styles.thumb}
                  width={photo.image.width}
                  height={photo.image.height}
                />
              ) : (
                <div className={styles.thumbPlaceholder} aria-hidden="true" />
              )}
              <div className={styles.tileText}>
                <span className={styles.fileName} title={photo.name}>
                  {photo.name}
                </span>
                {photo.status === 'uploading' && (
                  <>
                    {photo.measured ? (
                      <progress className={styles.progress} max={100} value={percentSent(photo)} aria-label={`Uploading ${photo.name}`} />
                    ) : (
                      <progress className={styles.progress} aria-label={`Uploading ${photo.name}`} />
                    )}
                    <span className={styles.hint}>{uploadHint(photo)}</span>
                  </>
                )}
                {photo.status === 'done' && <span className={styles.uploaded}>Uploaded</span>}
                {photo.status === 'failed' && <span className={styles.failed}>{photo.error}</span>}
              </div>
              <button type="button" className={styles.remove} onClick={() => onRemove(photo.key)} aria-label={`Remove ${photo.name}`}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
