import { Link } from '@tuber/shell-contract/router';
import { firstWords, momentWords } from '@tuber/ui';
import { feedCardImage } from '../catalog/images.js';
import { productDetailRoute, type Product } from '../catalog/types.js';
import { useBuyerT } from '../i18n/t.js';
import { PriceMarkerOf } from '../prices/PriceMarkerOf.js';
import { useSharedPriceNow } from '../prices/pricesNow.js';
import { RatingBadge } from '../trust/RatingBadge.js';
import { ageWords, pricePerKgWords, productPriceWords, stockWords } from '../i18n/words.js';
import { FIRST_PHOTO_TIMING, type FirstPhotoFirst } from './useFirstPhotoFirst.js';
import styles from './feed.module.css';

export const FEED_PREVIEW_WORDS = 20;

/**
 * How a card's photo loads: `lcp` for the first card (the page's largest paint on a phone: fetched first),
 * `eager` for the rest of the first row on a wide screen, `lazy` below the fold.
 */
export type ImagePriority = 'lcp' | 'eager' | 'lazy';

// The full time a product was posted (the age's tooltip): Lagos time, in the buyer's language (issue 25; it was
// the device's US-style "11/28/2026, 11:01:54 AM"). The formatter is made once per language (dates.ts).
const postedAt = (iso: string): string => momentWords(iso, { seconds: true });

/** Whether a card shows a photo (else its "no image" box). */
export const hasPhoto = (product: Product): boolean => feedCardImage(product) !== null;

/**
 * One card of the buyer feed (spec §2). `holdPhoto`: the photo is not asked for yet (its box keeps its size);
 * `firstPhoto`: this card's photo is the one the others wait for (useFirstPhotoFirst).
 */
export function ProductCard({
  product,
  priority = 'lazy',
  holdPhoto = false,
  firstPhoto,
}: {
  product: Product;
  priority?: ImagePriority;
  holdPhoto?: boolean;
  firstPhoto?: Pick<FirstPhotoFirst, 'loaded' | 'failed'>;
}) {
  const t = useBuyerT();
  const to = productDetailRoute(product.product_id);
  const image = feedCardImage(product);
  const preview = firstWords(product.description, FEED_PREVIEW_WORDS);
  const perKg = pricePerKgWords(product, t);
  const stock = stockWords(product, t);
  const priceNow = useSharedPriceNow(product.tuber_type);
  return (
    <article className={styles.card} data-testid="product-card" data-product-id={product.product_id} data-status={stock.kind}>
      <header className={styles.cardHeader}>
        <div className={styles.seller}>
          <span className={styles.business}>{product.business_name}</span>
          <span className={styles.location}>{product.location}</span>
          <RatingBadge rating={product.farmer_rating} />
        </div>
        <time className={styles.age} dateTime={product.created_at} title={postedAt(product.created_at)}>
          {ageWords(product.created_at, { suffix: false }, t)}
        </time>
      </header>
      <Link to={to} className={styles.imageLink} tabIndex={-1} aria-hidden="true">
        {image ? (
          // 4:3 like its frame (aspect-ratio in feed.module.css): the card keeps its height before the photo arrives.
          <img
            className={styles.image}
            {...(holdPhoto ? {} : { src: image.src, ...(image.srcSet ? { srcSet: image.srcSet, sizes: image.sizes } : {}) })}
            {...(firstPhoto ? { onLoad: firstPhoto.loaded, onError: firstPhoto.failed, elementtiming: FIRST_PHOTO_TIMING } : {})}
            alt=""
            width={640}
            height={480}
            loading={priority === 'lazy' ? 'lazy' : 'eager'}
            {...(priority === 'lcp' ? { fetchPriority: 'high' as const } : { decoding: 'async' as const })}
          />
        ) : (
          <span className={styles.noImage}>{t('card.no-image')}</span>
        )}
      </Link>
      <div className={styles.cardBody}>
        <h2 className={styles.name}>
          <Link to={to}>{product.product_name}</Link>
        </h2>
        <p className={styles.price} data-testid="product-price">
          {productPriceWords(product, t)}
        </p>
        {perKg ? <p className={styles.perKg}>{perKg}</p> : null}
        <PriceMarkerOf product={product} now={priceNow} />
        {stock.kind === 'available' ? (
          stock.text ? (
            <p className={styles.stock}>{stock.text}</p>
          ) : null
        ) : (
          <p>
            <span className={stock.kind === 'sold-out' ? styles.soldOut : styles.nextHarvest} data-testid="product-status">
              {stock.text}
            </span>
          </p>
        )}
        <p className={styles.description}>
          {preview.text}
          {preview.isCut ? '… ' : ' '}
          <Link to={to} className={styles.seeMore} aria-label={t('card.see-more-label', { name: product.product_name })}>
            {t('card.see-more')}
          </Link>
        </p>
      </div>
    </article>
  );
}
