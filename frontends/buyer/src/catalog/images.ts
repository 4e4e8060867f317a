// Which photo file a slot asks for (issue 13: cheap phones, costly data). The media service stores each photo as
// uploaded plus two WebP variants that fit inside a square (services/media VARIANT_SIZES): `card` 640 px and
// `thumb` 200 px; the catalog lists them as `image_cards` / `image_thumbs`, in the order of `images`.
// `sizes` says how wide each slot is in CSS pixels at each layout, so the browser fetches the smallest file
// that stays sharp on the phone's screen.

/** The media service's variant widths (services/media/src/domain/image.ts VARIANT_SIZES). */
export const VARIANT_WIDTHS = { card: 640, thumb: 200 } as const;

/** The width the browser is told for an original, whose real width the catalog does not carry: only "larger". */
const ORIGINAL_WIDTH = 2000;

/**
 * The feed grid's image width (src/feed/feed.module.css): the page is at most 1160 px wide with 1 rem padding
 * each side; 1 column under 768 px, 2 from 768 px, 3 from 1024 px, 1.25 rem gaps.
 */
export const FEED_CARD_SIZES = [
  '(min-width: 1024px) min(calc((100vw - 4.5rem) / 3), 376px)',
  '(min-width: 768px) calc((100vw - 3.25rem) / 2)',
  'calc(100vw - 2rem)',
].join(', ');

/**
 * The product page's carousel (src/detail/detail.module.css): full width under 900 px, then 3/5 of the page
 * (at most 1160 px, 1 rem padding, 1.5 rem gap).
 */
export const DETAIL_IMAGE_SIZES = '(min-width: 900px) min(calc((100vw - 3.5rem) * 0.6), 663px), calc(100vw - 2rem)';

export interface ImageSource {
  src: string;
  srcSet?: string;
  sizes?: string;
}

/**
 * A feed card's photo: the 640 px card variant at most (with the 200 px thumbnail for narrow slots), never the
 * original, which on a phone of density 2 would be chosen for a 330 px slot and cost many times the bytes.
 * A product from before the variants existed has only its original.
 */
export function feedCardImage(product: { images: string[]; image_cards?: string[]; image_thumbs?: string[] }): ImageSource | null {
  const card = product.image_cards?.[0];
  const thumb = product.image_thumbs?.[0];
  if (!card) return product.images[0] ? { src: product.images[0] } : null;
  const srcSet = [thumb ? `${thumb} ${VARIANT_WIDTHS.thumb}w` : null, `${card} ${VARIANT_WIDTHS.card}w`].filter(Boolean).join(', ');
  return { src: card, srcSet, sizes: FEED_CARD_SIZES };
}

/**
 * One photo of the product page: the card variant where it is sharp enough, the original for a wide slot or a
 * dense screen (the product page is where a buyer looks closely).
 */
export function detailImage(original: string, card: string | undefined): ImageSource {
  // `src` stays the original: only a browser without srcset uses it, and the page's tests name the photo by it.
  if (!card) return { src: original };
  return { src: original, srcSet: `${card} ${VARIANT_WIDTHS.card}w, ${original} ${ORIGINAL_WIDTH}w`, sizes: DETAIL_IMAGE_SIZES };
}
