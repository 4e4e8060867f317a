// Metadata of stored images: who uploaded them and whether a product uses them, so that
// images of deleted products, and uploads never attached, can be removed.
import { Schema, type Connection } from 'mongoose';
import { OutboxField, redisDocumentLock, type RedisClient } from '@tuber/kit';

export const ImageSchema = new Schema(
  {
    image_id: { type: String, required: true },
    farmer_id: { type: String, required: true },
    /** The spec's name: "<timestamp>_<original name>" (shown to the farmer, never used as an address). */
    file_name: { type: String, required: true },
    /** Where the bytes are in the bucket (random); absent on records made before names were random. */
    object_name: { type: String, default: null },
    content_type: { type: String, required: true },
    bytes: { type: Number, required: true },
    width: { type: Number, required: true },
    height: { type: Number, required: true },
    /** Set when a product takes the image; null while it is only uploaded. */
    product_id: { type: String, default: null },
    /** Set (with its ImageRemoved event) when the image is to go; the record goes once the event is out. */
    removing: { type: Boolean, default: false },
    created_at: { type: Date, required: true },
    /**
     * false from the moment the record reserves its name until the original and both variants are
     * in the bucket; then true. Records from before this field have none and count as stored.
     * A record that stays false (MinIO failed mid-upload, or the process died) is cleaned up:
     * files removed first, then the record, so no object is ever left without a record.
     */
    stored: { type: Boolean },
    /** Set when storing the files failed and removing them failed too (MinIO away): the clean-up takes it at once. */
    failed_at: { type: Date },
    outbox: OutboxField,
  },
  { collection: 'image', versionKey: false },
);
ImageSchema.index({ image_id: 1 }, { unique: true });
// The record reserves its file name before any bytes are written, so two uploads never share an object.
ImageSchema.index({ file_name: 1 }, { unique: true });
ImageSchema.index({ removing: 1 });
// Uploads not (yet) stored: few at any time, looked for every half minute.
ImageSchema.index({ stored: 1, created_at: 1 });
ImageSchema.index({ farmer_id: 1, created_at: -1 });
// Counting a farmer's photos no product uses yet (the cap on unattached uploads).
ImageSchema.index({ farmer_id: 1, product_id: 1 });
ImageSchema.index({ product_id: 1, created_at: 1 });

export function imageModel(connection: Connection) {
  return connection.model('Image', ImageSchema);
}
export type ImageModel = ReturnType<typeof imageModel>;

/** The lock every writer of one image record takes (attach, removal, upload, the outbox; ADR 0035), keyed by `{ image_id }`. */
export const imageDocumentLock = (redis: RedisClient) => redisDocumentLock(redis, 'image_id', (id) => `media:lock:image:${id}`);
