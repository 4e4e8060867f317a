// The buyer feed, newest first, one page at a time. Products are read one UTC hour at a time with
// a plain equality filter, which every MongoDB-wire server serves from an index — FerretDB too,
// whose PostgreSQL backend pushes equality down but evaluates ranges, $or and sorts in its own
// process over the whole collection. Order inside an hour is settled here, bounded by the hour.
import type { FeedDayModel, ProductDocument, ProductModel } from './product.js';
import { feedHourOf } from './product.js';
import type { FeedPosition } from './cursor.js';

/** Feed order: newest first, product id breaking ties. */
export function comesBefore(a: { created_at: Date; product_id: string }, b: { created_at: Date; product_id: string }): boolean {
  const at = a.created_at.getTime();
  const bt = b.created_at.getTime();
  return at !== bt ? at > bt : a.product_id > b.product_id;
}

/** The hours that have products, newest first, starting at `fromHour` (inclusive). */
async function* hoursFrom(FeedDay: FeedDayModel, fromHour: string): AsyncGenerator<string> {
  const days = await FeedDay.find({ day: { $lte: fromHour.slice(0, 10) } })
    .sort({ day: -1 })
    .lean();
  for (const { day, hours } of days) {
    for (const hour of [...hours].sort().reverse()) {
      const key = `${day}T${hour}`;
      if (key <= fromHour) yield key;
    }
  }
}

export async function readFeedPage(
  models: { Product: ProductModel; FeedDay: FeedDayModel },
  limit: number,
  position?: FeedPosition,
): Promise<{ items: ProductDocument[]; more: boolean }> {
  const after = position && { created_at: position.createdAt, product_id: position.productId };
  const items: ProductDocument[] = [];
  for await (const hour of hoursFrom(models.FeedDay, position ? feedHourOf(position.createdAt) : '9999-12-31T23')) {
    const inHour = await models.Product.find({ feed_hour: hour }).lean();
    const visible = inHour
      .filter((product) => product.deleting !== true && (!after || comesBefore(after, product)))
      .sort((a, b) => (comesBefore(a, b) ? -1 : 1));
    items.push(...visible.slice(0, limit + 1 - items.length));
    if (items.length > limit) break;
  }
  return { items: items.slice(0, limit), more: items.length > limit };
}
