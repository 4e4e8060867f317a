// The photos field: a picker that adds photos (one or several a pick, as a phone's camera gives them), the
// count next to it ("1 of 2–5 photos: add 1 more"), and a tile per photo with its upload progress or
// thumbnail, a Remove button and, but for the first (the cover), a Make cover button.
import type { ChangeEvent } from 'react';
import { tr, useFarmerT } from '../i18n/t.js';
import { IMAGES_PER_PRODUCT, photoCount } from './imageRules.js';
import { percentSent, type PhotoUpload } from './uploads.js';
import styles from './addProduct.module.css';

/** Bytes sent, then the wait while the media service makes the card and thumbnail variants. */
function uploadHint(photo: PhotoUpload): string {
  if (photo.preparing) return tr('photos.preparing');
  if (!photo.measured) return tr('photos.uploading');
  const percent = percentSent(photo);
  return percent >= 100 ? tr('photos.processing') : tr('photos.percent', { percent });
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
  const t = useFarmerT();
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
            <span className={styles.dropzoneTitle}>{counted === 0 ? t('photos.add') : t('photos.add_more')}</span>
            <span className={styles.hint}>{t('photos.add_hint')}</span>
          </label>
        )}
        <p className={styles.photoCount} id={`${id}-count`} data-enough={count.enough} aria-live="polite" data-testid="photo-count">
          <strong>{count.count}</strong>: {count.advice}
          {uploading > 0 && <span className={styles.countExtra}> · {t('photos.uploading_count', { count: uploading })}</span>}
          {failed > 0 && <span className={styles.countFailed}> · {t('photos.failed_count', { count: failed })}</span>}
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
        <ol className={styles.tiles} aria-label={t('photos.chosen')}>
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
                {index === 0 && photo.status !== 'failed' && <span className={styles.coverBadge}>{t('photos.cover')}</span>}
              </div>
              <div className={styles.tileText}>
                <span className={styles.fileName} title={photo.name}>
                  {photo.name}
                </span>
                {photo.status === 'uploading' && (
                  <>
                    {photo.measured ? (
                      <progress
                        className={styles.progress}
                        max={100}
                        value={percentSent(photo)}
                        aria-label={t('photos.uploading_name', { name: photo.name })}
                      />
                    ) : (
                      <progress className={styles.progress} aria-label={t('photos.uploading_name', { name: photo.name })} />
                    )}
                    <span className={styles.hint}>{uploadHint(photo)}</span>
                  </>
                )}
                {photo.status === 'done' && (
                  <span className={styles.uploaded}>{photo.posted ? t('photos.posted') : t('photos.uploaded')}</span>
                )}
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
                      aria-label={t('photos.make_cover_name', { name: photo.name })}
                    >
                      {t('photos.make_cover')}
                    </button>
                  )}
                  <button
                    type="button"
                    className={`${styles.tileButton} ${styles.removeButton}`}
                    onClick={() => onRemove(photo.key)}
                    disabled={disabled}
                    aria-label={t('photos.remove_name', { name: photo.name })}
                  >
                    {t('photos.remove')}
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
