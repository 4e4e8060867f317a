// Order requests (issue 12): a buyer asks one farmer for some of their products, without online
// payment; the farmer accepts (stock is reserved), declines, and later marks it fulfilled or
// cancelled. The orders service owns these; front ends and tests use these shapes.
import { problemProperties } from './problems.js';
import { Type, type Static } from '@sinclair/typebox';
import { CalendarDay, SellingUnitSchema } from './api.js';
import { Review } from './reviews.js';

/** Where a request is in its life. One state machine (services/orders/src/domain/state-machine.ts). */
export const ORDER_STATUSES = ['sent', 'accepted', 'declined', 'fulfilled', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const OrderStatusSchema = Type.Union(ORDER_STATUSES.map((s) => Type.Literal(s)));

/** How the buyer gets the produce. */
export const FULFILMENTS = ['pickup', 'delivery'] as const;
export type Fulfilment = (typeof FULFILMENTS)[number];
export const FulfilmentSchema = Type.Union(FULFILMENTS.map((s) => Type.Literal(s)));

export const ORDER_LIMITS = {
  /** Lines in one request (one farmer's products). */
  maxLines: 20,
  noteMaxLength: 500,
  reasonMaxLength: 300,
  addressMaxLength: 300,
} as const;

const quantity = Type.Number({ minimum: 0.01, maximum: 1_000_000, description: 'in the product’s selling unit, at most 2 decimals' });
const naira = Type.Number({ minimum: 0, maximum: 100_000_000, description: 'naira per selling unit, at most 2 decimals' });
const reason = Type.String({ minLength: 1, maxLength: ORDER_LIMITS.reasonMaxLength, pattern: '\\S' });

/** One line as the buyer sends it: the price is the one the cart showed, checked against the current one. */
export const OrderLineInput = Type.Object(
  {
    product_id: Type.String({ minLength: 1, maxLength: 64 }),
    quantity,
    price: naira,
    unit: SellingUnitSchema,
  },
  { additionalProperties: false },
);
export type OrderLineInput = Static<typeof OrderLineInput>;

/** POST /api/orders/requests (buyer): one request to one farmer. */
export const NewOrderRequest = Type.Object(
  {
    /** Chosen by the client (a UUID) so that sending again after a lost answer does not send twice. */
    request_id: Type.String({ format: 'uuid' }),
    farmer_id: Type.String({ minLength: 1, maxLength: 64 }),
    lines: Type.Array(OrderLineInput, { minItems: 1, maxItems: ORDER_LIMITS.maxLines }),
    fulfilment: FulfilmentSchema,
    /** Required for delivery. */
    address: Type.Optional(Type.String({ maxLength: ORDER_LIMITS.addressMaxLength })),
    preferred_date: CalendarDay,
    note: Type.Optional(Type.String({ maxLength: ORDER_LIMITS.noteMaxLength })),
    /** A Nigerian phone number; stored as E.164 digits (234…). */
    phone: Type.String({ minLength: 7, maxLength: 20 }),
  },
  { additionalProperties: false },
);
export type NewOrderRequest = Static<typeof NewOrderRequest>;

export const OrderLine = Type.Object({
  product_id: Type.String(),
  product_name: Type.String(),
  unit: SellingUnitSchema,
  /** What the buyer asked for. */
  quantity: Type.Number(),
  /** What the farmer accepted (absent until accepted; may be less than asked, with a reason). */
  accepted_quantity: Type.Optional(Type.Number()),
  /** Naira per unit at the time of the request. */
  price: Type.Number(),
  /** price × (accepted_quantity ?? quantity), naira, 2 decimals. */
  line_total: Type.Number(),
});
export type OrderLine = Static<typeof OrderLine>;

export const OrderHistoryEntry = Type.Object({
  status: OrderStatusSchema,
  at: Type.String({ format: 'date-time' }),
  by: Type.Union([Type.Literal('buyer'), Type.Literal('farmer')]),
  reason: Type.Optional(Type.String()),
});
export type OrderHistoryEntry = Static<typeof OrderHistoryEntry>;

export const OrderRequest = Type.Object({
  request_id: Type.String(),
  /** Short number people read out and quote on WhatsApp, e.g. "TM-1042". */
  number: Type.String(),
  buyer_id: Type.String(),
  buyer_name: Type.String(),
  buyer_phone: Type.String({ description: 'E.164 digits without +, e.g. 2348031234567' }),
  farmer_id: Type.String(),
  business_name: Type.String(),
  lines: Type.Array(OrderLine),
  total: Type.Number({ description: 'naira, 2 decimals' }),
  fulfilment: FulfilmentSchema,
  address: Type.Optional(Type.String()),
  preferred_date: CalendarDay,
  note: Type.Optional(Type.String()),
  status: OrderStatusSchema,
  history: Type.Array(OrderHistoryEntry),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  /** 1 when sent, +1 on every transition. */
  revision: Type.Integer({ minimum: 1 }),
  /** True when the other party changed it since the caller last opened it. */
  unread: Type.Boolean(),
  /** The buyer's review of a fulfilled request, with the farmer's answer (issue 26); absent before one is written. */
  review: Type.Optional(Review),
});
export type OrderRequest = Static<typeof OrderRequest>;

/** POST /api/orders/requests/:id/accept (farmer). Lines left out are accepted as asked. */
export const AcceptOrder = Type.Object(
  {
    lines: Type.Optional(
      Type.Array(Type.Object({ product_id: Type.String({ minLength: 1, maxLength: 64 }), quantity }, { additionalProperties: false }), {
        maxItems: ORDER_LIMITS.maxLines,
      }),
    ),
    /** Required when a quantity is lowered. */
    reason: Type.Optional(reason),
  },
  { additionalProperties: false },
);
export type AcceptOrder = Static<typeof AcceptOrder>;

/** POST …/decline (farmer) and …/cancel (either party): why. */
export const WithReason = Type.Object({ reason }, { additionalProperties: false });
export type WithReason = Static<typeof WithReason>;

/** Why a request was refused (409): one entry per line that cannot be sent as it is. */
export const ORDER_PROBLEMS = ['sold_out', 'above_stock', 'price_changed', 'unit_changed', 'unavailable'] as const;
export const OrderLineProblem = Type.Object({
  product_id: Type.String(),
  problem: Type.Union(ORDER_PROBLEMS.map((s) => Type.Literal(s))),
  /** The current price (price_changed), naira per unit. */
  price: Type.Optional(Type.Number()),
  /** What is in stock now (above_stock), in the unit. */
  available: Type.Optional(Type.Number()),
  unit: Type.Optional(SellingUnitSchema),
});
export type OrderLineProblem = Static<typeof OrderLineProblem>;
/** A 409 from POST /api/orders/requests: the error shape, `code` ORDER_REFUSED with one entry per line (or REQUEST_ID_TAKEN, none). */
export const OrderRefused = Type.Object({ ...problemProperties, problems: Type.Array(OrderLineProblem) });
export type OrderRefused = Static<typeof OrderRefused>;

/** GET /api/orders/unread: requests the other party changed since the caller last opened them. */
export const UnreadCount = Type.Object({ count: Type.Integer({ minimum: 0 }) });
export type UnreadCount = Static<typeof UnreadCount>;

/**
 * POST /api/orders/unread/ticket: opens GET /api/orders/unread/stream?ticket=… once, within `expires_in`
 * seconds (docs/adr/0067). The stream's `unread` events carry an UnreadCount.
 */
export const StreamTicket = Type.Object({
  ticket: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }),
  expires_in: Type.Integer({ minimum: 1 }),
});
export type StreamTicket = Static<typeof StreamTicket>;
export const StreamTicketQuery = Type.Object({ ticket: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }) }, { additionalProperties: false });
export type StreamTicketQuery = Static<typeof StreamTicketQuery>;
/**
 * One event of GET /api/orders/unread/stream, as an EventSource parses it: `unread` with an UnreadCount as
 * JSON in `data`, `ping` every 20 s, `end` when a new ticket is due (`data` {"reason":"ended"|"shutdown"}).
 */
export const UnreadStreamEvent = Type.Union([
  Type.Object({ event: Type.Literal('unread'), data: Type.String({ contentMediaType: 'application/json', pattern: '^\\{"count":\\d+\\}$' }) }),
  Type.Object({ event: Type.Literal('ping'), data: Type.String() }),
  Type.Object({ event: Type.Literal('end'), data: Type.String({ contentMediaType: 'application/json' }) }),
]);
export type UnreadStreamEvent = Static<typeof UnreadStreamEvent>;

/** What a buyer did that a farmer's insights count (POST /api/orders/activity). */
export const ACTIVITY_KINDS = ['view', 'contact_phone', 'contact_email', 'contact_whatsapp', 'cart_add'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];
export const Activity = Type.Object(
  {
    product_id: Type.String({ minLength: 1, maxLength: 64 }),
    kind: Type.Union(ACTIVITY_KINDS.map((s) => Type.Literal(s))),
  },
  { additionalProperties: false },
);
export type Activity = Static<typeof Activity>;

/** GET /api/orders/insights?days=7|30 (farmer): per product counts and a daily series. */
export const INSIGHT_COUNTS = [...ACTIVITY_KINDS, 'requests_received', 'requests_accepted'] as const;
export type InsightCount = (typeof INSIGHT_COUNTS)[number];
const counts = Type.Object(Object.fromEntries(INSIGHT_COUNTS.map((k) => [k, Type.Integer({ minimum: 0 })])) as Record<InsightCount, ReturnType<typeof Type.Integer>>);
export const Insights = Type.Object({
  days: Type.Union([Type.Literal(7), Type.Literal(30)]),
  totals: counts,
  products: Type.Array(Type.Object({ product_id: Type.String(), product_name: Type.String(), counts })),
  /** One entry per day, oldest first (Africa/Lagos days), totals over all products. */
  daily: Type.Array(Type.Object({ day: CalendarDay, counts })),
});
export type Insights = Static<typeof Insights>;

/**
 * A farmer's blocked buyer (issue 24): that buyer's next request to this farmer is refused (403
 * BUYER_BLOCKED); requests already sent stay as they are. PUT/DELETE /api/orders/blocked-buyers/:buyerId.
 */
export const BlockedBuyer = Type.Object({
  buyer_id: Type.String(),
  /** As the buyer's latest request to this farmer named them. */
  buyer_name: Type.String(),
  blocked_at: Type.String({ format: 'date-time' }),
});
export type BlockedBuyer = Static<typeof BlockedBuyer>;

/** GET /api/orders/blocked-buyers (farmer): newest block first. */
export const BlockedBuyers = Type.Object({ items: Type.Array(BlockedBuyer) });
export type BlockedBuyers = Static<typeof BlockedBuyers>;

/** The stable code of a send refused because the farmer blocked the buyer (403). */
export const BUYER_BLOCKED = 'BUYER_BLOCKED';

/**
 * A 403 from POST /api/orders/requests: the error shape, with `code` BUYER_BLOCKED when the farmer
 * blocked this buyer (absent when the caller is not a buyer).
 */
export const OrderSendForbidden = Type.Object(problemProperties);
export type OrderSendForbidden = Static<typeof OrderSendForbidden>;
