// Reports and the moderation desk (issue 26, docs/adr/0071): what anyone signed in may report, what a moderator
// sees and does, and the two events that carry a moderator's decisions to the services that enforce them.
// The desk (frontends/moderation) and the trust-and-safety service (services/moderation) are one team's; the
// buyer and farmer front ends only send reports.
import { Type, type Static } from '@sinclair/typebox';

export const REPORT_TARGET_KINDS = ['product', 'farmer', 'request'] as const;
export type ReportTargetKind = (typeof REPORT_TARGET_KINDS)[number];
export const REPORT_REASONS = ['scam', 'wrong_photos', 'wrong_price', 'abusive', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_NOTE_MAX = 500;
/** Reports one person may send in an hour (repeats of one report are merged and count once). */
export const REPORTS_PER_HOUR = 10;

export const ReportTargetKindSchema = Type.Union([Type.Literal('product'), Type.Literal('farmer'), Type.Literal('request')]);
export const ReportReasonSchema = Type.Union([
  Type.Literal('scam'),
  Type.Literal('wrong_photos'),
  Type.Literal('wrong_price'),
  Type.Literal('abusive'),
  Type.Literal('other'),
]);

/** POST /api/moderation/reports. */
export const ReportInput = Type.Object(
  {
    target_kind: ReportTargetKindSchema,
    /** A product id, a farmer's user id, or an order request id. */
    target_id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
    reason: ReportReasonSchema,
    note: Type.Optional(Type.String({ maxLength: REPORT_NOTE_MAX })),
  },
  { additionalProperties: false },
);
export type ReportInput = Static<typeof ReportInput>;

/** The reporter's own report as saved: `merged` when it joined their earlier open report of the same target. */
export const ReportReceipt = Type.Object({
  report_id: Type.String(),
  merged: Type.Boolean(),
  times: Type.Integer({ minimum: 1, description: 'how often this person reported this target while it was open' }),
});
export type ReportReceipt = Static<typeof ReportReceipt>;

export const MODERATION_ACTIONS = ['dismiss', 'hide', 'unhide', 'suspend', 'restore'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];
export const MODERATION_REASON_MAX = 500;
const ModerationActionSchema = Type.Union([
  Type.Literal('dismiss'),
  Type.Literal('hide'),
  Type.Literal('unhide'),
  Type.Literal('suspend'),
  Type.Literal('restore'),
]);

/** POST /api/moderation/targets/:kind/:id/actions. */
export const ModerationActionInput = Type.Object(
  {
    action: ModerationActionSchema,
    /** Why, in words the farmer or buyer may be shown (hide, suspend) and the audit log keeps. */
    reason: Type.String({ minLength: 3, maxLength: MODERATION_REASON_MAX, pattern: '\\S' }),
    /** Suspend only: until when; absent means for good (until restored). */
    until: Type.Optional(Type.String({ format: 'date-time' })),
    /** Suspend or restore on a product or a request: whose account (the farmer, or a request's buyer). */
    account: Type.Optional(Type.Union([Type.Literal('farmer'), Type.Literal('buyer')])),
  },
  { additionalProperties: false },
);
export type ModerationActionInput = Static<typeof ModerationActionInput>;

const at = Type.String({ format: 'date-time' });

export const ReportView = Type.Object({
  report_id: Type.String(),
  reporter_id: Type.String(),
  reporter_name: Type.String(),
  reason: ReportReasonSchema,
  note: Type.Optional(Type.String()),
  times: Type.Integer(),
  state: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
  created_at: at,
  updated_at: at,
});
export type ReportView = Static<typeof ReportView>;

/** One line of the append-only audit log: who did what to what, when and why. */
export const AuditEntry = Type.Object({
  entry_id: Type.String(),
  at,
  moderator_id: Type.String(),
  moderator_name: Type.String(),
  action: ModerationActionSchema,
  target_kind: ReportTargetKindSchema,
  target_id: Type.String(),
  /** The account the action fell on (a suspension), or the listing's farmer. */
  subject_user_id: Type.Optional(Type.String()),
  reason: Type.String(),
  until: Type.Optional(at),
  /** Reports the action closed. */
  closed_reports: Type.Integer({ minimum: 0 }),
});
export type AuditEntry = Static<typeof AuditEntry>;

/** What the desk knows of a target: its title and the accounts it concerns, and their standing. */
export const TargetSummary = Type.Object({
  target_kind: ReportTargetKindSchema,
  target_id: Type.String(),
  /** A product's name, a farm's name, or a request's number. */
  title: Type.String(),
  /** The farmer the target belongs to or names. */
  farmer_id: Type.Optional(Type.String()),
  /** A request's buyer. */
  buyer_id: Type.Optional(Type.String()),
  hidden: Type.Boolean({ description: 'a product hidden by a moderator' }),
  hidden_reason: Type.Optional(Type.String()),
  farmer_suspended: Type.Boolean(),
  buyer_suspended: Type.Optional(Type.Boolean()),
});
export type TargetSummary = Static<typeof TargetSummary>;

/** GET /api/moderation/queue: targets with open reports, oldest first. */
export const QueueItem = Type.Object({
  target: TargetSummary,
  open_reports: Type.Integer({ minimum: 1 }),
  reasons: Type.Record(Type.String(), Type.Integer()),
  first_reported_at: at,
  last_reported_at: at,
});
export const QueuePage = Type.Object({ items: Type.Array(QueueItem), next: Type.Optional(Type.String()) });
export type QueuePage = Static<typeof QueuePage>;

/** GET /api/moderation/targets/:kind/:id: the target with its history. */
export const TargetDetail = Type.Object({
  target: TargetSummary,
  reports: Type.Array(ReportView),
  actions: Type.Array(AuditEntry),
});
export type TargetDetail = Static<typeof TargetDetail>;

export const AuditPage = Type.Object({ entries: Type.Array(AuditEntry), next: Type.Optional(Type.String()) });
export type AuditPage = Static<typeof AuditPage>;
