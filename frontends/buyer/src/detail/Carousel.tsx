import { useState } from 'react';
import { nextIndex, previousIndex } from './carousel.js';
import styles from './detail.module.css';

/** The product's photos one at a time; previous and next wrap around (spec §2). */
export function Carousel({ images, cards = [], name }: { images: string[]; cards?: string[]; name: string }) {
  const [index, setIndex] = useState(0);
  if (images.length === 0) return <div className={styles.noImages}>No images available</div>;
  const current = Math.min(index, images.length - 1);
  return (
    <div className={styles.carousel} role="group" aria-roledescription="carousel" aria-label={`Photos of ${name}`}>
      <img
        className={styles.slide}
        src={images[current]}
        // The 640 px card variant where it is sharp enough (narrow slot, low density); the original otherwise.
        // The original's width is unknown here: 2000w only tells the browser it is the larger one.
        {...(cards[current] ? { srcSet: `${cards[current]} 640w, ${images[current]} 2000w`, sizes: '(min-width: 900px) 55vw, 100vw' } : {})}
        alt={`${name}, photo ${current + 1} of ${images.length}`}
        width={800}
        height={600}
        data-testid="carousel-image"
        data-index={current}
      />
      {images.length > 1 ? (
        <>
          <button
            type="button"
            className={`${styles.arrow} ${styles.previous}`}
            aria-label="Previous image"
            onClick={() => setIndex(previousIndex(current, images.length))}
          >
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
              <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </button>
          <button
            type="button"
            className={`${styles.arrow} ${styles.next}`}
            aria-label="Next image"
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
