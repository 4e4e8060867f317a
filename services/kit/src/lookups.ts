// Reads by a list of values that stay cheap on the local FerretDB (docs/adr/0063).
import type { Model } from 'mongoose';

/** Distinct values one call may look up: a longer list is a caller's bug, not a slow query. */
export const MAX_LOOKUP_VALUES = 500;

/**
 * `model.find({ ...filter, [field]: { $in: values } }, projection).lean()`, read as one equality lookup
 * per distinct value, at once. FerretDB 1.x (the local stand-in for MongoDB) pushes only equality
 * down to PostgreSQL: with `$in`, every document of the collection was read and decoded, on every
 * call (1 665 applied takes per projected stock change; 1 900 image copies per poll of a product post,
 * 10 polls a second). An equality lookup uses the field's index. MongoDB answers the same set either
 * way. The order of the answer is not the order of `values`.
 */
export async function findByValues<T>(
  model: Model<any>,
  field: string,
  values: readonly unknown[],
  filter: Record<string, unknown> = {},
  projection?: Record<string, 0 | 1>,
): Promise<T[]> {
  const distinct = [...new Set(values)];
  if (distinct.length > MAX_LOOKUP_VALUES) {
    throw new RangeError(`findByValues: ${distinct.length} values of ${field}, at most ${MAX_LOOKUP_VALUES}`);
  }
  const found = await Promise.all(distinct.map((value) => model.find({ ...filter, [field]: value }, projection).lean<T[]>()));
  return found.flat();
}
