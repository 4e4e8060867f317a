// Keyset pagination over (created_at desc, product_id desc): a cursor names the last item seen.
export interface FeedPosition {
  createdAt: Date;
  productId: string;
}

export function encodeCursor(position: FeedPosition): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.productId}`, 'utf8').toString('base64url');
}

/** Returns undefined for anything that is not a cursor this service issued. */
export function decodeCursor(cursor: string): FeedPosition | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const [iso, productId, ...rest] = text.split('|');
  if (!iso || !productId || rest.length > 0) return undefined;
  const createdAt = new Date(iso);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== iso) return undefined;
  return { createdAt, productId };
}

/** The filter selecting items strictly after a position in feed order. */
export function afterPosition(position: FeedPosition) {
  return {
    $or: [{ created_at: { $lt: position.createdAt } }, { created_at: position.createdAt, product_id: { $lt: position.productId } }],
  };
}
