// The orders service's own copy of the catalog's products (issue 12): what a request is checked
// against when it is sent and accepted. Kept from ProductCreated/ProductChanged/ProductDeleted,
// newest revision wins; never read from the catalog synchronously.
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';

export const ProductProjectionSchema = new Schema(
  {
    product_id: { type: String, required: true },
    farmer_id: { type: String, required: true },
    product_name: { type: String, default: '' },
    /** Price of one selling unit, in kobo. */
    price_kobo: { type: Number, default: 0 },
    unit: { type: String, default: 'kg' },
    /** Stock in the selling unit as the catalog last published it. */
    quantity: { type: Number, default: 0 },
    /** available | sold_out | next_harvest */
    status: { type: String, default: 'available' },
    /** The catalog's revision of the product this copy reflects (0: only a deletion or an event without one). */
    revision: { type: Number, default: 0 },
    /** Stock changes of order requests ("<request_id>:take"/":give") that `quantity` already includes. */
    stock_ops: { type: [String], default: [] },
    /** The product was deleted in the catalog: nothing can be requested any more. */
    deleted: { type: Boolean, default: false },
    /** Hidden by a moderator (issue 26, ListingModerated): not requestable while it is; forward by revision. */
    hidden: { type: Boolean, default: false },
    moderation_revision: { type: Number },
    updated_at: { type: Date },
  },
  { collection: 'products', versionKey: false },
);
ProductProjectionSchema.index({ product_id: 1 }, { unique: true });
ProductProjectionSchema.index({ farmer_id: 1 });

export type ProductProjection = InferSchemaType<typeof ProductProjectionSchema>;
export type ProductModel = Model<ProductProjection>;

export function productModel(connection: Connection): ProductModel {
  return connection.model<ProductProjection>('ProductProjection', ProductProjectionSchema);
}
