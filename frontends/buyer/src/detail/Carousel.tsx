import { useState } from 'react';
import { detailImage } from '../catalog/images.js';
import { useBuyerT } from '../i18n/t.js';
import { nextIndex, previousIndex } from './carousel.js';
import styles from './detail.module.css';

/** The product's photos one at a time; previous and next wrap around (spec §2). */
export function Carousel({ images, cards = [], name }: { images: string[]; cards?: string[]; name: string }) {
  const t = useBuyerT();
  const [index, setIndex] = useState(0);
  if (images.length === 0) return <div className={styles.noImages}>{t('carousel.none')}</div>;
  const current = Math.min(index, images.length - 1);
  // The 640 px card variant where it is sharp enough (narrow slot, low density); the original otherwise.
  const image = detailImage(images[current]!, cards[current]);
  return (
    <div className={styles.carousel} role="group" aria-roledescription={t('carousel.role')} aria-label={t('carousel.label', { name })}>
      {/* The first photo is the page's largest paint: fetched at once. The frame is 4:3 (detail.module.css). */}
      <img
        className={styles.slide}
        src={image.src}
        {...(image.srcSet ? { srcSet: image.srcSet, sizes: image.sizes } : {})}
        alt={t('carousel.alt', { name, index: current + 1, count: images.length })}
        width={800}
        height={600}
        fetchPriority={current === 0 ? 'high' : 'auto'}
        data-testid="carousel-image"
        data-index={current}
      />
      {images.length > 1 ? (
        <>
          <button
            type="button"
            className={`${styles.arrow} ${styles.previous}`}
            aria-label={t('carousel.previous')}
            onClick={() => setIndex(previousIndex(current, images.length))}
          >
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
              <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </button>
          <button
            type="button"
            className={`${styles.arrow} ${styles.next}`}
            aria-label={t('carousel.next')}
            onClick={() => setIndex(nextIndex(current, images.length))}
          >
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
              <path d="M9 5l7 7-7 7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </button>
          <p className={styles.counter} aria-live="polite">
            {current + 1} / {images.length}
          </p>
        </>
      ) : null}
    </div>
  );
}
