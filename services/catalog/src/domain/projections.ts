// The catalog's own copies of what other services own, built from their events:
// farmers (business name, location, tubers) and the images the media service stored (dropped
// again when it removes them); farmers whose accounts were deleted.
import { Schema, type Connection, type InferSchemaType } from 'mongoose';

const FarmerSchema = new Schema(
  {
    farmer_id: { type: String, required: true },
    business_name: { type: String, required: true },
    location: { type: String, required: true },
    tuber: { type: [String], default: [] },
    revision: { type: Number, required: true },
  },
  { collection: 'farmer', versionKey: false },
);
FarmerSchema.index({ farmer_id: 1 }, { unique: true });

const ImageSchema = new Schema(
  {
    image_id: { type: String, required: true },
    farmer_id: { type: String, required: true },
    url: { type: String, required: true },
    card_url: { type: String, required: true },
    thumb_url: { type: String, required: true },
    /** The product that took the image; an image serves one product only. */
    product_id: { type: String, default: null },
    /** The media service removed its files. */
    removed: { type: Boolean, default: false },
  },
  { collection: 'image', versionKey: false },
);
ImageSchema.index({ image_id: 1 }, { unique: true });
// A product post claims the farmer's unattached copies (farmer_id, product_id null).
ImageSchema.index({ farmer_id: 1 });
export type ImageCopy = InferSchemaType<typeof ImageSchema>;

/**
 * Farmers whose accounts were deleted (AccountDeleted). Their products are gone, and a
 * FarmerProfileChanged delivered late must not bring the farmer back.
 */
const RemovedFarmerSchema = new Schema(
  {
    farmer_id: { type: String, required: true },
    deleted_at: { type: Date, required: true },
  },
  { collection: 'removed_farmer', versionKey: false },
);
RemovedFarmerSchema.index({ farmer_id: 1 }, { unique: true });

/**
 * Each farmer's rating (issue 26, FarmerRatingChanged): reviews, stars summed, and the event's revision. A
 * collection of its own, not fields of the farmer's document: its consumer and the profile's would otherwise
 * write one document at once, which FerretDB can lose.
 */
const FarmerRatingSchema = new Schema(
  {
    farmer_id: { type: String, required: true },
    count: { type: Number, required: true },
    stars_sum: { type: Number, required: true },
    revision: { type: Number, required: true },
  },
  { collection: 'farmer_rating', versionKey: false },
);
FarmerRatingSchema.index({ farmer_id: 1 }, { unique: true });

/** A farmer's account as moderators left it (issue 26, AccountModerated): its own collection, like the rating. */
const FarmerStandingSchema = new Schema(
  {
    farmer_id: { type: String, required: true },
    suspended: { type: Boolean, required: true },
    revision: { type: Number, required: true },
  },
  { collection: 'farmer_standing', versionKey: false },
);
FarmerStandingSchema.index({ farmer_id: 1 }, { unique: true });

export function projectionModels(connection: Connection) {
  return {
    Farmer: connection.model('Farmer', FarmerSchema),
    Image: connection.model('Image', ImageSchema),
    RemovedFarmer: connection.model('RemovedFarmer', RemovedFarmerSchema),
    FarmerRating: connection.model('FarmerRating', FarmerRatingSchema),
    FarmerStanding: connection.model('FarmerStanding', FarmerStandingSchema),
  };
}
export type Projections = ReturnType<typeof projectionModels>;
