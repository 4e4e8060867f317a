// Which photo file a slot asks for (issue 13: cheap phones, costly data). The media service stores each photo as
// uploaded plus two WebP variants that fit inside a square (services/media VARIANT_SIZES): `card` 640 px and
// `thumb` 200 px; the catalog lists them as `image_cards` / `image_thumbs`, in the order of `images`.
// `sizes` says how wide each slot is in CSS pixels at each layout, so the browser fetches the smallest file
// that stays sharp on the phone's screen.

/** The media service's variant widths (services/media/src/domain/image.ts VARIANT_SIZES). */
export const VARIANT_WIDTHS = { card: 640, thumb: 200 } as const;

/** The width the browser is told for an original, whose real width the catalog does not carry: only "larger". */
const ORIGINAL_WIDTH = 2000;

/*
 * The slots below are those of the pages inside the shell's dashboard (frontends/shell/src/dashboard/
 * dashboard.module.css): its content has 1.25 rem padding each side under 1024 px, and from 1024 px a 240 px
 * sidebar and 2 rem padding; the buyer's page adds 1 rem each side and is at most 1160 px wide
 * (--tm-content-width). Checked against the rendered layout by test/e2e/buyer-images.test.ts.
 */

/**
 * The feed card's photo (src/feed/feed.module.css): 1 column under 768 px, 2 from 768 px, 3 from 1024 px,
 * 1.25 rem gaps, inside a card with a 1 px border.
 */
export const FEED_CARD_SIZES = [
  '(min-width: 1024px) min(calc((100vw - 382px) / 3), 361px)',
  '(min-width: 768px) calc((100vw - 96px) / 2)',
  'calc(100vw - 74px)',
].join(', ');

/** The product page's carousel (src/detail/detail.module.css): full width under 900 px, then 3/5 of the page. */
export const DETAIL_IMAGE_SIZES = [
  '(min-width: 1024px) min(calc((100vw - 360px) * 0.6), 663px)',
  '(min-width: 900px) calc((100vw - 96px) * 0.6)',
  'calc(100vw - 72px)',
].join(', ');

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
