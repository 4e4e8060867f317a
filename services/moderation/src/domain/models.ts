// The trust-and-safety service's data (issue 26, docs/adr/0071):
// - copies of what reports can name, kept from other services' events: products, farms, order requests;
// - reports, merged per reporter and target while open;
// - the standing of listings and accounts as moderators decided it, each with the outbox of its event;
// - the audit log, append-only: the code inserts entries and never updates or deletes one.
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';
import { OutboxField } from '@tuber/kit';

export const ProductCopySchema = new Schema(
  {
    _id: { type: String, required: true },
    farmer_id: { type: String, required: true },
    name: { type: String, default: '' },
    deleted: { type: Boolean, default: false },
    revision: { type: Number, default: 0 },
  },
  { collection: 'product_copies', versionKey: false },
);
ProductCopySchema.index({ farmer_id: 1 });

export const FarmCopySchema = new Schema(
  {
    _id: { type: String, required: true },
    business_name: { type: String, default: '' },
    revision: { type: Number, default: 0 },
  },
  { collection: 'farm_copies', versionKey: false },
);

export const RequestCopySchema = new Schema(
  {
    _id: { type: String, required: true },
    number: { type: String, required: true },
    buyer_id: { type: String, required: true },
    farmer_id: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { collection: 'request_copies', versionKey: false },
);

export const ReportSchema = new Schema(
  {
    _id: { type: String, required: true },
    reporter_id: { type: String, required: true },
    reporter_name: { type: String, default: '' },
    target_kind: { type: String, required: true },
    target_id: { type: String, required: true },
    reason: { type: String, required: true },
    note: { type: String },
    times: { type: Number, default: 1 },
    state: { type: String, enum: ['open', 'closed'], default: 'open' },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    closed_at: { type: Date },
    /** The audit entry that closed it. */
    closed_by: { type: String },
  },
  { collection: 'reports', versionKey: false },
);
ReportSchema.index({ state: 1 });
ReportSchema.index({ target_id: 1 });
ReportSchema.index({ reporter_id: 1 });

/** A listing as moderators left it; its outbox carries ListingModerated. */
export const ListingStateSchema = new Schema(
  {
    _id: { type: String, required: true },
    farmer_id: { type: String, required: true },
    hidden: { type: Boolean, default: false },
    reason: { type: String, default: null },
    revision: { type: Number, default: 0 },
    outbox: OutboxField,
  },
  { collection: 'listing_states', versionKey: false },
);

/** An account as moderators left it; its outbox carries AccountModerated. */
export const AccountStateSchema = new Schema(
  {
    _id: { type: String, required: true },
    suspended: { type: Boolean, default: false },
    until: { type: Date, default: null },
    reason: { type: String, default: null },
    revision: { type: Number, default: 0 },
    outbox: OutboxField,
  },
  { collection: 'account_states', versionKey: false },
);
AccountStateSchema.index({ suspended: 1 });

export const AuditEntrySchema = new Schema(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
    moderator_id: { type: String, required: true },
    moderator_name: { type: String, required: true },
    action: { type: String, required: true },
    target_kind: { type: String, required: true },
    target_id: { type: String, required: true },
    subject_user_id: { type: String },
    reason: { type: String, required: true },
    until: { type: Date },
    closed_reports: { type: Number, default: 0 },
  },
  { collection: 'audit_log', versionKey: false },
);
AuditEntrySchema.index({ target_id: 1 });
AuditEntrySchema.index({ subject_user_id: 1 });

export type ReportDoc = InferSchemaType<typeof ReportSchema>;
export type AuditDoc = InferSchemaType<typeof AuditEntrySchema>;
export type ListingStateDoc = InferSchemaType<typeof ListingStateSchema>;
export type AccountStateDoc = InferSchemaType<typeof AccountStateSchema>;

export function moderationModels(connection: Connection) {
  return {
    ProductCopy: connection.model('ProductCopy', ProductCopySchema),
    FarmCopy: connection.model('FarmCopy', FarmCopySchema),
    RequestCopy: connection.model('RequestCopy', RequestCopySchema),
    Report: connection.model('Report', ReportSchema) as Model<ReportDoc>,
    ListingState: connection.model('ListingState', ListingStateSchema) as Model<ListingStateDoc>,
    AccountState: connection.model('AccountState', AccountStateSchema) as Model<AccountStateDoc>,
    Audit: connection.model('AuditEntry', AuditEntrySchema) as Model<AuditDoc>,
  };
}
export type ModerationModels = ReturnType<typeof moderationModels>;
