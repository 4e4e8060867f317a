// One document per (product, Lagos day): what buyers did with the product that day, and the order
// requests counted for it. Every count is a $inc on this one document; a request is counted once
// because its id is kept in the same document (received_ids / accepted_ids) and the update is
// conditional on it not being there yet.
import { Schema, type Connection, type Model } from 'mongoose';
import { INSIGHT_COUNTS, type InsightCount } from '@tuber/contracts';

export type InsightDay = {
  farmer_id: string;
  product_id: string;
  /** YYYY-MM-DD, Africa/Lagos. */
  day: string;
  /** Requests counted in `requests_received` / `requests_accepted` (their ids), so a redelivery adds nothing. */
  received_ids?: string[];
  accepted_ids?: string[];
} & Partial<Record<InsightCount, number>>;

const InsightDaySchema = new Schema<InsightDay>(
  {
    farmer_id: { type: String, required: true },
    product_id: { type: String, required: true },
    day: { type: String, required: true },
    ...Object.fromEntries(INSIGHT_COUNTS.map((k) => [k, { type: Number }])),
    // No default: an upsert that $pushes the first id must not also be given an empty list.
    received_ids: { type: [String], default: undefined },
    accepted_ids: { type: [String], default: undefined },
  },
  { collection: 'insight_day', versionKey: false },
);
InsightDaySchema.index({ product_id: 1, day: 1 }, { unique: true });
InsightDaySchema.index({ farmer_id: 1, day: 1 });

export type InsightDayModel = Model<InsightDay>;

export function insightDayModel(connection: Connection): InsightDayModel {
  return connection.model<InsightDay>('InsightDay', InsightDaySchema);
}
