// Buyer and farmer profiles (spec §3), one collection each, unique by e-mail and by user id.
import { Schema, type Connection } from 'mongoose';
import { TUBER_TYPES } from '@tuber/contracts';
import { OutboxField } from '@tuber/kit';

const person = {
  user_id: { type: String, required: true },
  email: { type: String, required: true, lowercase: true, trim: true },
  firstname: { type: String, required: true },
  lastname: { type: String, required: true },
  phone: { type: String, required: true },
  /** Events written with the profile and published right after (see docs/adr/0009). */
  outbox: OutboxField,
};

export const BuyerSchema = new Schema(
  { ...person, user_type: { type: String, enum: ['buyer'], default: 'buyer' } },
  { collection: 'buyer', timestamps: { createdAt: 'created_at', updatedAt: 'updated_at' } },
);
BuyerSchema.index({ email: 1 }, { unique: true });
BuyerSchema.index({ user_id: 1 }, { unique: true });

export const FarmerSchema = new Schema(
  {
    ...person,
    business_name: { type: String, required: true },
    location: { type: String, required: true },
    tuber: { type: [String], enum: TUBER_TYPES, default: [] },
    user_type: { type: String, enum: ['farmer'], default: 'farmer' },
    /** Bumped on every change, carried in FarmerProfileChanged so consumers can drop stale events. */
    revision: { type: Number, default: 1 },
  },
  { collection: 'farmer', timestamps: { createdAt: 'created_at', updatedAt: 'updated_at' } },
);
FarmerSchema.index({ email: 1 }, { unique: true });
FarmerSchema.index({ user_id: 1 }, { unique: true });

export function profileModels(connection: Connection) {
  return {
    Buyer: connection.model('Buyer', BuyerSchema),
    Farmer: connection.model('Farmer', FarmerSchema),
  };
}
export type ProfileModels = ReturnType<typeof profileModels>;
