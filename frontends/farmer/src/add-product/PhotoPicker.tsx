// The photos field: a picker that adds photos (one or several a pick, as a phone's camera gives them), the
// count next to it ("1 of 2–5 photos: add 1 more"), and a tile per photo with its upload progress or
// thumbnail, a Remove button and, but for the first (the cover), a Make cover button.
import type { ChangeEvent } from 'react';
import { IMAGES_PER_PRODUCT, photoCount } from './imageRules.js';
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
  /** Shown instead of the picker when photos cannot be changed (the server did not say which photos the product has). */
  locked?: string;
  onChoose: (files: File[]) => void;
  onRemove: (key: string) => void;
  onMoveFirst: (key: string) => void;
}

export function PhotoPicker({ id, photos, disabled, locked, onChoose, onRemove, onMoveFirst }: PhotoPickerProps) {
  const counted = photos.filter((photo) => photo.status !== 'failed').length;
  const uploading = photos.filter((photo) => photo.status === 'uploading').length;
  const failed = photos.length - counted;
  const count = photoCount(counted);
  const full = counted >= IMAGES_PER_PRODUCT.max;

  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.target.files ?? []);
    // Cleared so that picking the same file again is still a change.
    event.target.value = '';
    if (files.length > 0) onChoose(files);
  }

  return (
    <div className={styles.photos}>
      <div className={styles.pickerRow}>
        {!locked && (
          <label htmlFor={id} className={styles.dropzone} data-full={full || undefined}>
            <span className={styles.dropzoneTitle}>{counted === 0 ? 'Add photos' : 'Add more photos'}</span>
            <span className={styles.hint}>Take or choose one or several. They upload at once.</span>
          </label>
        )}
        <p className={styles.photoCount} id={`${id}-count`} data-enough={count.enough} aria-live="polite" data-testid="photo-count">
          <strong>{count.count}</strong>: {count.advice}
          {uploading > 0 && <span className={styles.countExtra}> · {uploading} uploading</span>}
          {failed > 0 && (
            <span className={styles.countFailed}>
              {' '}
              · {failed} failed, remove {failed === 1 ? 'it' : 'them'}
            </span>
          )}
        </p>
      </div>
      {locked ? (
        <p className={styles.hint}>{locked}</p>
      ) : (
        <input
          id={id}
          name="images"
          type="file"
          accept="image/*"
          multiple
          disabled={disabled}
          onChange={handleChange}
          aria-describedby={`${id}-count`}
          className={styles.fileInput}
        />
      )}

      {photos.length > 0 && (
        <ol className={styles.tiles} aria-label="Chosen photos">
          {photos.map((photo, index) => (
            <li key={photo.key} className={styles.tile} data-status={photo.status}>
              <div className={styles.tileImage}>
                {photo.status === 'done' && photo.image ? (
                  <img
                    src={photo.image.thumb_url}
                    alt={photo.name}
                    className={styles.thumb}
                    width={photo.image.width ?? 160}
                    height={photo.image.height ?? 160}
                  />
                ) : (
                  <div className={styles.thumbPlaceholder} aria-hidden="true" />
                )}
                {index === 0 && photo.status !== 'failed' && <span className={styles.coverBadge}>Cover</span>}
              </div>
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
                {photo.status === 'done' && <span className={styles.uploaded}>{photo.posted ? 'Posted' : 'Uploaded'}</span>}
                {photo.status === 'failed' && <span className={styles.failed}>{photo.error}</span>}
              </div>
              {!locked && (
                <div className={styles.tileActions}>
                  {index > 0 && photo.status !== 'failed' && (
                    <button
                      type="button"
                      className={styles.tileButton}
                      onClick={() => onMoveFirst(photo.key)}
                      disabled={disabled}
                      aria-label={`Make cover: ${photo.name}`}
                    >
                      Make cover
                    </button>
                  )}
                  <button
                    type="button"
                    className={`${styles.tileButton} ${styles.removeButton}`}
                    onClick={() => onRemove(photo.key)}
                    disabled={disabled}
                    aria-label={`Remove ${photo.name}`}
                  >
                    Remove
                  </button>
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
