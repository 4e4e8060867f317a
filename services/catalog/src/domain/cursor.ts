// Keyset pagination over (sold out last, created_at desc, product_id desc): a cursor names the last item seen and
// the feed bucket it sits in (ADR 0023), so the database path starts reading right there. The
// content is ours to change: a cursor of an older format is refused like any other foreign one.
export interface FeedPosition {
  createdAt: Date;
  productId: string;
  /** The feed bucket of the item (see product.ts). */
  bucket: number;
  /** Sold-out products come after all others (ADR 0029): the second part of the feed. */
  soldOut?: boolean;
}

const VERSION = 'f3';

export function encodeCursor(position: FeedPosition): string {
  return Buffer.from(
    `${VERSION}|${position.bucket}|${position.createdAt.toISOString()}|${position.productId}|${position.soldOut ? 1 : 0}`,
    'utf8',
  ).toString('base64url');
}

/** Returns undefined for anything that is not a cursor this service issued. */
export function decodeCursor(cursor: string): FeedPosition | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const [version, bucketText, iso, productId, phase, ...rest] = text.split('|');
  if (version !== VERSION || !bucketText || !iso || !productId || (phase !== '0' && phase !== '1') || rest.length > 0) return undefined;
  const bucket = Number(bucketText);
  if (!Number.isSafeInteger(bucket) || bucket < 0 || String(bucket) !== bucketText) return undefined;
  const createdAt = new Date(iso);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== iso) return undefined;
  return { createdAt, productId, bucket, soldOut: phase === '1' };
}
