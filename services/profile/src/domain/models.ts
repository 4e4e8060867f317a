// Buyer and farmer profiles (spec §3), one collection each, unique by user id (the token's subject).
// The e-mail address is a copy of the account's verified address, kept current by AccountEmailChanged;
// it identifies nothing, and two profiles may hold the same one for a while (an address that moved
// from a deleted account to a new one before the deletion arrived).
import { Schema, type Connection } from 'mongoose';
import { TUBER_TYPES } from '@tuber/contracts';
import { OutboxField } from '@tuber/kit';

const person = {
  user_id: { type: String, required: true },
  email: { type: String, required: true, lowercase: true, trim: true },
  firstname: { type: String, required: true },
  lastname: { type: String, required: true },
  phone: { type: String, required: true },
  /** When Keycloak recorded the change that set `email` (absent: the address the profile was created with). */
  email_changed_at: { type: Date },
  /** The number an SMS code proved this person holds (issue 26, docs/adr/0070): verified while it equals `phone`. */
  verified_phone: { type: String },
  phone_verified_at: { type: Date },
  /** The code sent last, until it is used or spent: only its hash is kept. */
  phone_check: {
    type: new Schema(
      {
        phone: { type: String, required: true },
        code_hash: { type: String, required: true },
        sent_at: { type: Date, required: true },
        expires_at: { type: Date, required: true },
        tries_left: { type: Number, required: true },
      },
      { _id: false },
    ),
    default: undefined,
  },
  /** Events written with the profile and published right after (see docs/adr/0009). */
  outbox: OutboxField,
};

export const BuyerSchema = new Schema(
  { ...person, user_type: { type: String, enum: ['buyer'], default: 'buyer' } },
  { collection: 'buyer', timestamps: { createdAt: 'created_at', updatedAt: 'updated_at' } },
);
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
    /** New-request alerts by SMS too (issue 26), to the verified number only. */
    sms_alerts: { type: Boolean, default: false },
    /** Bumped with every FarmerSmsAlertsChanged, so the orders service drops a late older one. */
    alerts_revision: { type: Number, default: 0 },
  },
  { collection: 'farmer', timestamps: { createdAt: 'created_at', updatedAt: 'updated_at' } },
);
FarmerSchema.index({ user_id: 1 }, { unique: true });

/** Accounts deleted in Keycloak: their profiles are gone and are not created again. */
export const RemovedAccountSchema = new Schema(
  {
    user_id: { type: String, required: true },
    deleted_at: { type: Date, required: true },
  },
  { collection: 'removed_account', versionKey: false },
);
RemovedAccountSchema.index({ user_id: 1 }, { unique: true });

export function profileModels(connection: Connection) {
  return {
    Buyer: connection.model('Buyer', BuyerSchema),
    Farmer: connection.model('Farmer', FarmerSchema),
    RemovedAccount: connection.model('RemovedAccount', RemovedAccountSchema),
  };
}
export type ProfileModels = ReturnType<typeof profileModels>;

/**
 * Profiles were once unique by e-mail too (and found by it). That index would now refuse the
 * profile of a new account that reuses a deleted account's address before the deletion arrives:
 * it goes. Returns the collections it was dropped from.
 */
export async function dropEmailUniqueness(models: ProfileModels): Promise<string[]> {
  const dropped: string[] = [];
  for (const model of [models.Buyer, models.Farmer]) {
    const indexes = await model.collection.indexes().catch(() => []);
    if (indexes.some((index) => index.name === 'email_1')) {
      await model.collection.dropIndex('email_1');
      dropped.push(model.collection.collectionName);
    }
  }
  return dropped;
}

/**
 * A person's buyer or farmer profile by the token's subject, with its kind; undefined without one. Never by
 * e-mail: an address can pass to another account (a deleted account's, reused) and must not bring the first
 * account's profile with it.
 */
export async function findProfile(models: ProfileModels, userId: string) {
  const buyer = await models.Buyer.findOne({ user_id: userId }).lean();
  if (buyer) return { ...buyer, user_type: 'buyer' as const };
  const farmer = await models.Farmer.findOne({ user_id: userId }).lean();
  if (farmer) return { ...farmer, user_type: 'farmer' as const };
  return undefined;
}
