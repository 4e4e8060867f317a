// Every error answer of every service, as RFC 9457 problem details with a stable machine code (issue 25,
// docs/adr/0064-problem-codes.md). The English `detail` is for logs, curl and clients that know no code; the
// front ends and the e-mails show the code's own words in the reader's language, filled with `params`.
//
// Version 2 of the error shape. Version 1 was { statusCode, error, message }: every answer still carries those
// three, with the same meaning, so a client built against version 1 reads a version 2 answer unchanged.
import { Type, type Static } from '@sinclair/typebox';

/**
 * The codes, each with the names of the values its words may use (`params`). A code is never reused for
 * another meaning and never removed while a release of any front end still translates it; a new code is an
 * addition (a front end that does not know it shows its words for the status instead).
 */
export const PROBLEMS = {
  // ---- any route (the kit, the gateway) ----
  /** The body, query, path or headers broke the route's schema; `errors` says which field and how. */
  VALIDATION_FAILED: [],
  /** Text with the NUL character (U+0000). */
  TEXT_NUL: [],
  /** A JSON body that is not JSON. */
  BODY_NOT_JSON: [],
  /** A body larger than the route takes. */
  BODY_TOO_LARGE: [],
  /** A body of a kind the route does not take. */
  UNSUPPORTED_MEDIA_TYPE: [],
  /** Any other refusal of the request's form. */
  REQUEST_INVALID: [],
  /** No route at this address. */
  ROUTE_NOT_FOUND: [],
  /** Too many requests from this person (or this device) in a while; `seconds` to wait. */
  RATE_LIMITED: ['seconds'],
  /** Too many requests from this network, counted at the gateway before any account is known. */
  NETWORK_RATE_LIMITED: [],
  /** The limits cannot be counted (Redis away), and this route does not go on without them. */
  LIMITS_UNAVAILABLE: [],
  /**
   * An account form (sign-up, resend, forgot, reset) had many posts from this network: the next one is taken
   * with a proof of work (docs/adr/0068). `challenge` is the one to solve (base64url JSON of an ALTCHA v2
   * challenge); the solved one goes in the PROOF_HEADER of the same request sent again. The words never show it.
   */
  PROOF_REQUIRED: ['challenge'],
  DATABASE_UNAVAILABLE: [],
  REDIS_UNAVAILABLE: [],
  EVENT_BUS_UNAVAILABLE: [],
  /** A bug or an outage on our side; the log has the cause. */
  INTERNAL_ERROR: [],

  // ---- signing in ----
  SIGN_IN_REQUIRED: [],
  /** The sign-in ended (signed out, password changed, account removed) or expired. */
  SIGN_IN_ENDED: [],
  /** A token that is not one of this realm's (no subject, unknown key, bad signature). */
  TOKEN_INVALID: [],
  /** The route is for one kind of account; `role` is farmer or buyer. */
  ROLE_REQUIRED: ['role'],
  /** Keycloak, which signs tokens, does not answer. */
  SIGN_IN_UNAVAILABLE: [],
  NO_SIGN_IN_KEPT: [],
  OTHER_ACCOUNT: [],
  ACCOUNT_GONE: [],
  ACCOUNT_BUSY: [],

  // ---- account forms (auth) ----
  EMAIL_INVALID: [],
  PHONE_INVALID: [],
  /** `field`: firstname, lastname, business_name, location, password or confirm_password. */
  FIELD_EMPTY: ['field'],
  /** `field` as above; `limit` characters. */
  FIELD_TOO_LONG_NAMED: ['field', 'limit'],
  /** A first or last name with a character Keycloak refuses; `character` is it, or empty for a control character. */
  NAME_CHARACTER: ['field', 'character'],
  TUBERS_INVALID: [],
  PASSWORDS_DO_NOT_MATCH: [],
  PASSWORD_TOO_SHORT: ['min'],
  PASSWORD_IS_EMAIL: [],
  PASSWORD_TOO_COMMON: [],
  PASSWORD_REJECTED: [],
  RESET_LINK_INVALID: [],
  RESET_IN_PROGRESS: [],

  // ---- field codes, in `errors` of VALIDATION_FAILED (from the schema) ----
  FIELD_REQUIRED: [],
  FIELD_UNKNOWN: [],
  FIELD_TYPE: [],
  FIELD_TOO_SHORT: ['limit'],
  FIELD_TOO_LONG: ['limit'],
  FIELD_TOO_SMALL: ['limit'],
  FIELD_TOO_LARGE: ['limit'],
  FIELD_TOO_FEW: ['limit'],
  FIELD_TOO_MANY: ['limit'],
  FIELD_FORMAT: [],
  FIELD_CHOICE: [],
  FIELD_DUPLICATE: [],
  FIELD_INVALID: [],

  // ---- profiles ----
  PROFILE_NOT_FOUND: [],
  FARMER_NOT_FOUND: [],
  PROFILE_BUSY: [],
  PROFILE_CHANGED_MEANWHILE: [],
  BUYER_FARM_FIELDS: [],
  EMAIL_NOT_VERIFIED: [],
  ACCOUNT_DELETED: [],
  USER_TYPE_MISSING: [],
  /** The e-mail address is changed through Keycloak's "Change e-mail", not the profile. */
  EMAIL_CHANGE_ELSEWHERE: [],
  /** `field` is not one a profile change may hold. */
  FIELD_NOT_CHANGEABLE: ['field'],
  NOTHING_TO_CHANGE: [],
  /** `field` (as FIELD_EMPTY) is not valid. */
  FIELD_INVALID_NAMED: ['field'],
  /** `fields`: the account's missing fields, comma-separated (claim names). */
  ACCOUNT_INCOMPLETE: ['fields'],

  // ---- products (catalog) ----
  PRODUCT_NOT_FOUND: [],
  NOT_YOUR_PRODUCT: [],
  PRODUCT_CHANGED_ELSEWHERE: [],
  FARMER_PROFILE_FIRST: [],
  PAGE_LINK_INVALID: [],
  IMAGES_IN_USE: [],
  OWN_PHOTOS_ONLY: [],
  IMAGE_COUNT: ['min', 'max'],
  IDEMPOTENCY_KEY_REUSED: [],
  TUBER_NOT_GROWN: [],
  PRICE_INVALID: [],
  QUANTITY_DECIMALS: [],
  PRICE_DECIMALS: [],
  KG_UNIT_WEIGHT: [],
  UNIT_WEIGHT_MISSING: [],
  UNIT_WEIGHT_INVALID: [],
  TUBER_SIZE_PER_TUBER: [],
  NEXT_HARVEST_MISSING: [],
  NEXT_HARVEST_INVALID: [],
  NEXT_HARVEST_PAST: ['today'],
  NEXT_HARVEST_WITHOUT_STATUS: [],
  KG_AND_QUANTITY: [],
  KG_FOR_KG_ONLY: [],
  QUANTITY_MISSING: [],

  // ---- photos (media, gateway) ----
  UPLOAD_NOT_MULTIPART: [],
  UPLOAD_NO_FILE: [],
  PHOTO_TOO_LARGE: ['mb'],
  PHOTO_UNREADABLE: [],
  PHOTO_FORMAT: [],
  PHOTO_TOO_MANY_PIXELS: [],
  UPLOADS_AT_ONCE: ['max'],
  UNATTACHED_PHOTOS: ['max'],
  PHOTO_SERVICE_BUSY: [],
  PHOTO_STORE_UNAVAILABLE: [],
  UPLOADS_UNAVAILABLE: [],
  IMAGE_NOT_FOUND: [],

  // ---- nutrition ----
  NUTRITION_NOT_FOUND: [],

  // ---- order requests (orders) ----
  NOT_BUYER_OR_FARMER: [],
  REQUEST_NOT_FOUND: [],
  BUYER_BLOCKED: [],
  /** Lines that cannot be sent as they are; `problems` (409) says which and why. */
  ORDER_REFUSED: [],
  /** The request id the client made is another buyer's: send again from the cart, with a new id. */
  REQUEST_ID_TAKEN: [],
  DELIVERY_ADDRESS_MISSING: [],
  PREFERRED_DATE_INVALID: [],
  PREFERRED_DATE_PASSED: [],
  PRODUCT_TWICE: [],
  OTHER_FARMERS_PRODUCT: ['product'],
  SENDING_BUSY: [],
  REQUEST_BUSY: [],
  /** `number`: the request's number (R-…). */
  REQUEST_CHANGED: ['number'],
  /** Only the farmer may ever take `action` (accept, decline, fulfil or cancel). */
  ACTION_FARMER_ONLY: ['action'],
  /** `number` is in `status` (sent, accepted, declined, fulfilled, cancelled), which `action` cannot leave. */
  ACTION_NOT_FROM_STATUS: ['number', 'status', 'action'],
  /** From `status`, only `party` (farmer, buyer) can take `action`. */
  ACTION_OTHER_PARTY: ['number', 'status', 'action', 'party'],
  /** `action` (decline, cancel) needs a reason the other party will see. */
  REASON_REQUIRED: ['number', 'action'],
  REASON_FOR_LOWERED: ['number'],
  ACCEPT_PRODUCT_UNKNOWN: [],
  ACCEPT_PRODUCT_TWICE: ['product'],
  ACCEPT_QUANTITY_INVALID: ['product'],
  ACCEPT_ABOVE_ASKED: ['product', 'quantity'],
  /** Accepting would promise what is not there; `errors` has one STOCK_* entry per line. */
  STOCK_SHORT: [],
  STOCK_UNLISTED: ['product'],
  STOCK_UNIT_CHANGED: ['product'],
  STOCK_SOLD_OUT: ['product'],
  /** `quantity` left in `unit` (kg, tuber, heap, bag_50kg, lot_100). */
  STOCK_ONLY_LEFT: ['product', 'quantity', 'unit'],
  STOCK_ALL_PROMISED: ['product'],
  BUYER_NOT_KNOWN: [],
  INSIGHTS_BUSY: [],

  // ---- reviews and trust (orders, issue 26, docs/adr/0069) ----
  /** `number`: a request can be reviewed once it is fulfilled, and only by its buyer. */
  REVIEW_NOT_YET: ['number'],
  /** A review can be changed for `days` days after it was written. */
  REVIEW_EDIT_CLOSED: ['days'],
  REVIEW_NOT_FOUND: [],
  /** The farmer has answered this review already: one public answer per review. */
  REVIEW_ALREADY_ANSWERED: [],
  REVIEW_BUSY: [],

  // ---- verified phone (profile, issue 26, docs/adr/0070) ----
  /** This phone number is verified already. */
  PHONE_ALREADY_VERIFIED: [],
  /** A code was sent moments ago: the next one may be asked for in `seconds`. */
  PHONE_CODE_WAIT: ['seconds'],
  /** `max` codes a day reach one account or one number; more tomorrow. */
  PHONE_CODES_TODAY: ['max'],
  /** No code is waiting (none sent, or it expired after `minutes` minutes): ask for a new one. */
  PHONE_CODE_NONE: ['minutes'],
  /** The code is not the one sent; `left` tries remain. */
  PHONE_CODE_WRONG: ['left'],
  /** All the tries of this code are used: ask for a new one. */
  PHONE_CODE_TRIES: [],
  /** The phone number changed after the code was sent: ask for a code to the new number. */
  PHONE_CHANGED_SINCE_CODE: [],
  /** The SMS provider does not answer or refused the message; nothing was charged to the person. */
  SMS_UNAVAILABLE: [],
  /** SMS alerts go to a verified number only. */
  SMS_ALERTS_NEED_VERIFIED_PHONE: [],

  // ---- reports and the moderation desk (moderation, issue 26, docs/adr/0071) ----
  /** The product, farm or request reported is not known (or, for a request, not the reporter's). */
  REPORT_TARGET_NOT_FOUND: [],
  /** Nobody reports their own listing or farm. */
  REPORT_OWN: [],
  MODERATION_TARGET_NOT_FOUND: [],
  /** `action` does not apply to this target as it stands (hide a farm, unhide a listing that shows, dismiss with no open report). */
  MODERATION_ACTION_INVALID: ['action'],
  /** A suspension on a request names whose account: `account` farmer or buyer. */
  MODERATION_ACCOUNT_REQUIRED: [],
  /** Moderators do not suspend themselves. */
  MODERATION_SELF: [],
  MODERATION_BUSY: [],
  /** Keycloak, where accounts are switched off and on, does not answer: nothing was changed. */
  ACCOUNTS_UNAVAILABLE: [],

  // ---- live unread counts (orders, docs/adr/0067): the shell polls instead, nobody is shown these ----
  /** The stream's ticket is unknown, spent or expired: ask for a new one. */
  STREAM_TICKET_INVALID: [],
  /** This person already has `max` live streams open (tabs, devices). */
  STREAMS_AT_ONCE: ['max'],
  /** This instance holds all the streams it takes. */
  STREAMS_FULL: [],
} as const satisfies Record<string, readonly string[]>;

export type ProblemCode = keyof typeof PROBLEMS;
export const PROBLEM_CODES = Object.keys(PROBLEMS) as ProblemCode[];

/** Values a code's words use; names as PROBLEMS lists them. */
export type ProblemParams = Record<string, string | number>;

/** The `type` URI of a code: a URN, so it names the problem without promising a page to fetch. */
export const problemType = (code: string) => `urn:tuber-market:problem:${code.toLowerCase().replaceAll('_', '-')}`;

/** The media type of every error answer. */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

const code = Type.String({
  pattern: '^[A-Z][A-Z0-9_]*$',
  description: `stable machine code, one of: ${PROBLEM_CODES.join(', ')} (more may be added; unknown codes fall back on the status)`,
});
const params = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), {
  description: "values the code's words use, named as the code declares",
});

/** One field's problem inside `errors`. */
export const FieldProblem = Type.Object({
  /** Where: the part and the path, e.g. "body.phone", "query.limit", "body.lines.0.quantity". */
  field: Type.String(),
  code,
  detail: Type.String(),
  params: Type.Optional(params),
});
export type FieldProblem = Static<typeof FieldProblem>;

/** The properties of every error answer (version 2; the last three are version 1's). */
export const problemProperties = {
  type: Type.String({ description: 'urn:tuber-market:problem:<code in lowercase, dashes>' }),
  title: Type.String({ description: 'the status in words (English)' }),
  status: Type.Integer(),
  detail: Type.String({ description: 'what happened and what to do, in English' }),
  code,
  params: Type.Optional(params),
  errors: Type.Optional(Type.Array(FieldProblem)),
  /** Version 1: the status. */
  statusCode: Type.Integer(),
  /** Version 1: the status in words. */
  error: Type.String(),
  /** Version 1: the same as `detail`. */
  message: Type.String(),
};

/** The one error shape every service answers with. */
export const ErrorResponse = Type.Object(problemProperties, { $id: 'ErrorResponse' });
export type ErrorResponse = Static<typeof ErrorResponse>;

/**
 * The header that carries a solved proof of work (PROOF_REQUIRED): base64url of the JSON
 * `{ "challenge": <the challenge as received>, "solution": <ALTCHA v2 solution> }`. Used once; valid 5 minutes.
 */
export const PROOF_HEADER = 'x-tuber-proof';
