// Integration events: each is a named, versioned contract with a subject and a payload schema.
// Publishers set a message id (JetStream de-duplication); consumers are durable and idempotent.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TuberTypeSchema, UserTypeSchema } from './tubers.js';

/** The JetStream stream that carries every integration event. */
export const EVENT_STREAM = 'TUBER';
export const EVENT_SUBJECTS = 'tuber.>';

export interface EventContract<S extends TSchema = TSchema> {
  /** NATS subject, also the event's name: tuber.<context>.<entity>.<what-happened>.v<version> */
  readonly subject: string;
  readonly version: number;
  readonly payload: S;
}

const defineEvent = <S extends TSchema>(subject: string, version: number, payload: S): EventContract<S> => ({
  subject: `${subject}.v${version}`,
  version,
  payload,
});

export const ProfileCreated = defineEvent(
  'tuber.profile.created',
  1,
  Type.Object({
    user_id: Type.String(),
    email: Type.String(),
    user_type: UserTypeSchema,
    created_at: Type.String({ format: 'date-time' }),
  }),
);

export const FarmerProfileChanged = defineEvent(
  'tuber.profile.farmer.changed',
  1,
  Type.Object({
    farmer_id: Type.String(),
    business_name: Type.String(),
    location: Type.String(),
    tuber: Type.Array(TuberTypeSchema),
    /** Monotonic per farmer, so a consumer can ignore an older change delivered late. */
    revision: Type.Integer({ minimum: 1 }),
  }),
);

export const ProductCreated = defineEvent(
  'tuber.catalog.product.created',
  1,
  Type.Object({
    product_id: Type.String(),
    farmer_id: Type.String(),
    image_ids: Type.Array(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    // Issue 12: what the orders service's projection needs (optional: events published before it lack them).
    product_name: Type.Optional(Type.String()),
    price_kobo: Type.Optional(Type.Integer({ minimum: 0 })),
    unit: Type.Optional(Type.String()),
    quantity: Type.Optional(Type.Number({ minimum: 0 })),
    status: Type.Optional(Type.String()),
    revision: Type.Optional(Type.Integer({ minimum: 1 })),
    // Issue 27: what the price guide needs to put the listing's price per kg in its tuber's figures.
    tuber_type: Type.Optional(Type.String()),
    unit_weight_kg: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  }),
);

export const ProductDeleted = defineEvent(
  'tuber.catalog.product.deleted',
  1,
  Type.Object({
    product_id: Type.String(),
    farmer_id: Type.String(),
    image_ids: Type.Array(Type.String()),
    deleted_at: Type.String({ format: 'date-time' }),
  }),
);

/**
 * A farmer edited a product (issue 11). Carries what other services and caches need: the price and
 * stock buyers' carts compare against, and the photos now in use (in order) so the media service
 * can keep the ones added and let go of the ones removed. `revision` grows with every edit: a
 * consumer ignores one older than what it has.
 */
export const ProductChanged = defineEvent(
  'tuber.catalog.product.changed',
  1,
  Type.Object({
    product_id: Type.String(),
    farmer_id: Type.String(),
    revision: Type.Integer({ minimum: 1 }),
    /** The fields this edit changed, by their API names (price, quantity, status, image_ids, …). */
    changed: Type.Array(Type.String()),
    price_kobo: Type.Integer({ minimum: 0 }),
    unit: Type.String(),
    quantity: Type.Number({ minimum: 0 }),
    status: Type.String(),
    image_ids: Type.Array(Type.String()),
    /** Photos this edit took off the product (their files can go). */
    removed_image_ids: Type.Array(Type.String()),
    changed_at: Type.String({ format: 'date-time' }),
    /** Issue 12: the product's name now (the orders service's projection shows it). */
    product_name: Type.Optional(Type.String()),
    /**
     * Issue 12: keys of the stock changes order requests made that this revision's `quantity` already
     * includes ("<request_id>:take" / "<request_id>:give", the most recent 200), so the orders service
     * can stop holding them back from what it offers. `changed` holds "stock" for such a change.
     */
    stock_ops: Type.Optional(Type.Array(Type.String())),
    /** Issue 27: the product's tuber and the average weight of one unit now (the price guide's price per kg). */
    tuber_type: Type.Optional(Type.String()),
    unit_weight_kg: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  }),
);

export const ImageStored = defineEvent(
  'tuber.media.image.stored',
  1,
  Type.Object({
    image_id: Type.String(),
    farmer_id: Type.String(),
    url: Type.String(),
    card_url: Type.String(),
    thumb_url: Type.String(),
    stored_at: Type.String({ format: 'date-time' }),
  }),
);

/** An image's files are gone (its product was deleted, or no product took it in time): it can no longer be used. */
export const ImageRemoved = defineEvent(
  'tuber.media.image.removed',
  1,
  Type.Object({
    image_id: Type.String(),
    farmer_id: Type.String(),
    reason: Type.Union([Type.Literal('product-deleted'), Type.Literal('never-attached'), Type.Literal('removed-from-product')]),
    removed_at: Type.String({ format: 'date-time' }),
  }),
);

/**
 * A Keycloak account no longer exists (the user deleted it, or an administrator did). Whatever was
 * bound to its subject goes with it: the profile, and a farmer's products. Published by the auth
 * service from Keycloak's user and admin events (docs/adr/0021).
 */
export const AccountDeleted = defineEvent(
  'tuber.identity.account.deleted',
  1,
  Type.Object({
    user_id: Type.String(),
    /** When Keycloak recorded the deletion. */
    deleted_at: Type.String({ format: 'date-time' }),
  }),
);

/**
 * An account's e-mail address as Keycloak holds it after a change. Consumers copy it only when
 * `email_verified` is true, and only if `changed_at` is newer than the copy they have.
 */
export const AccountEmailChanged = defineEvent(
  'tuber.identity.account.email.changed',
  1,
  Type.Object({
    user_id: Type.String(),
    email: Type.String(),
    email_verified: Type.Boolean(),
    changed_at: Type.String({ format: 'date-time' }),
    /**
     * Issue 13: the account's language as Keycloak holds it at `changed_at` (its `locale` attribute: en,
     * pcm, yo, ha or ig), whether or not the address is verified; absent when the account has none (and
     * in events published before it). Mail in that language, English without one (docs/adr/0044).
     */
    locale: Type.Optional(Type.String()),
  }),
);

const OrderEventLine = Type.Object({
  product_id: Type.String(),
  unit: Type.String(),
  /** Asked for (sent) or accepted (accepted, cancelled): the stock this line holds. */
  quantity: Type.Number(),
  price_kobo: Type.Integer({ minimum: 0 }),
});
const orderEvent = <P extends Record<string, TSchema>>(what: string, extra: P) =>
  defineEvent(
    `tuber.orders.request.${what}`,
    1,
    Type.Object({
      request_id: Type.String(),
      number: Type.String(),
      buyer_id: Type.String(),
      farmer_id: Type.String(),
      lines: Type.Array(OrderEventLine),
      /** The request's revision after this transition: a consumer handles each (request, revision) once. */
      revision: Type.Integer({ minimum: 1 }),
      at: Type.String({ format: 'date-time' }),
      ...extra,
    }),
  );

/** A buyer sent a request to a farmer (issue 12). */
export const OrderSent = orderEvent('sent', {});
/** The farmer accepted: the catalog takes `lines` (accepted quantities) off stock, once per request_id. */
export const OrderAccepted = orderEvent('accepted', { reason: Type.Optional(Type.String()) });
export const OrderDeclined = orderEvent('declined', { reason: Type.String() });
export const OrderFulfilled = orderEvent('fulfilled', {});
/** Cancelled by either party; when `was_accepted`, the catalog gives `lines` back to stock, once per request_id. */
export const OrderCancelled = orderEvent('cancelled', {
  reason: Type.String(),
  by: Type.Union([Type.Literal('buyer'), Type.Literal('farmer')]),
  was_accepted: Type.Boolean(),
});

/**
 * A farmer's rating changed (issue 26): a review was written or changed. The catalog copies it onto the
 * farmer's product cards. `revision` grows with every change of this farmer's rating, so a late delivery of
 * an older one changes nothing.
 */
export const FarmerRatingChanged = defineEvent(
  'tuber.orders.farmer.rating.changed',
  1,
  Type.Object({
    farmer_id: Type.String(),
    /** How many reviews, and their stars summed: the mean is stars_sum / count. */
    count: Type.Integer({ minimum: 0 }),
    stars_sum: Type.Integer({ minimum: 0 }),
    revision: Type.Integer({ minimum: 1 }),
    at: Type.String({ format: 'date-time' }),
  }),
);

/**
 * Where a farmer's new-request alerts go by SMS (issue 26, docs/adr/0070): `sms_to` is the farmer's verified
 * number (E.164 digits) while they have the alerts on, and null when they switched them off or their number is
 * not verified (changed, never checked). Only the orders service, which sends the alerts, is granted it: the
 * number goes nowhere else. `revision` grows with every change, so a late delivery of an older one changes nothing.
 */
export const FarmerSmsAlertsChanged = defineEvent(
  'tuber.profile.farmer.alerts.changed',
  1,
  Type.Object({
    farmer_id: Type.String(),
    sms_to: Type.Union([Type.String({ pattern: '^234[1-9][0-9]{9}$' }), Type.Null()]),
    revision: Type.Integer({ minimum: 1 }),
  }),
);

/**
 * A moderator hid a listing, or showed it again (issue 26, docs/adr/0071). The catalog takes a hidden product
 * out of the feed, search and carts (404 to everyone but its farmer, who sees `reason`), and the orders service
 * stops taking requests for it. `revision` grows per product with every decision: a late older one changes nothing.
 */
export const ListingModerated = defineEvent(
  'tuber.moderation.listing.changed',
  1,
  Type.Object({
    product_id: Type.String(),
    farmer_id: Type.String(),
    hidden: Type.Boolean(),
    /** Shown to the farmer while hidden; null once shown again. */
    reason: Type.Union([Type.String(), Type.Null()]),
    revision: Type.Integer({ minimum: 1 }),
    at: Type.String({ format: 'date-time' }),
  }),
);

/**
 * A moderator suspended an account, for a time or for good, or restored it (issue 26, docs/adr/0071). The
 * trust-and-safety service has already disabled (or enabled) the account in Keycloak and ended its sign-ins;
 * the catalog hides a suspended farmer's listings, and the orders service cancels the account's open requests.
 * `until` null means for good. `revision` grows per account with every decision.
 */
export const AccountModerated = defineEvent(
  'tuber.moderation.account.changed',
  1,
  Type.Object({
    user_id: Type.String(),
    suspended: Type.Boolean(),
    until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    reason: Type.Union([Type.String(), Type.Null()]),
    revision: Type.Integer({ minimum: 1 }),
    at: Type.String({ format: 'date-time' }),
  }),
);

export type EventPayload<E extends EventContract> = Static<E['payload']>;

/** Every event the system knows, for tooling and tests. */
export const ALL_EVENTS = [
  ProfileCreated,
  FarmerProfileChanged,
  ProductCreated,
  ProductDeleted,
  ProductChanged,
  ImageStored,
  ImageRemoved,
  AccountDeleted,
  AccountEmailChanged,
  OrderSent,
  OrderAccepted,
  OrderDeclined,
  OrderFulfilled,
  OrderCancelled,
  FarmerRatingChanged,
  FarmerSmsAlertsChanged,
  ListingModerated,
  AccountModerated,
] as const;
