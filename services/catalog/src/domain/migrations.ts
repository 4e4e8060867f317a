// One-off data changes run at start-up; each is idempotent and quick when there is nothing to do.
import { listFeedHour, type FeedDayModel, type ProductModel } from './product.js';

/** Products written before feed hours existed get theirs, and their hours are listed. */
export async function backfillFeedHours(Product: ProductModel, FeedDay: FeedDayModel): Promise<number> {
  const missing = await Product.find({ feed_hour: { $exists: false } }, { product_id: 1, created_at: 1 }).lean();
  for (const product of missing) {
    const hour = await listFeedHour(FeedDay, product.created_at);
    await Product.updateOne({ product_id: product.product_id }, { $set: { feed_hour: hour } });
  }
  return missing.length;
}
