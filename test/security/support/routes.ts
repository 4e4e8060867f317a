// Who may call each route. Every operation in the services' OpenAPI documents must be listed here:
// the authorisation matrix fails on one that is not, so a new route gets classified when it is added.
//
//   public     anyone, no token (the document declares no security)
//   signed-in  any valid access token: buyer or farmer
//   farmer     a token with the farmer realm role; a buyer gets 403
//   buyer      a token with the buyer realm role; a farmer gets 403
//   moderator  a token with the moderator realm role (issue 26, the moderation desk); buyers and
//              farmers without it get 403
//   owner      (with signed-in or farmer) the object named in the path belongs to one farmer:
//              anyone else gets 403 or 404 (answered like a missing object)
//   parties    (with signed-in) the object named in the path is between one buyer and one farmer
//              (an order request): those two may, anyone else gets 403 or 404
// Without a token every secured route answers 401.
export type Access = 'public' | 'signed-in' | 'farmer' | 'buyer' | 'moderator';

export interface RouteRule {
  access: Access;
  owner?: boolean;
  parties?: boolean;
  /** Why, in a few words (shown in failures and in docs/security.md). */
  why: string;
}

export const ROUTE_RULES: Record<string, RouteRule> = {
  // auth: the account forms work before anyone has a token
  'GET /api/auth/oidc': { access: 'public', why: 'the shell reads the sign-in settings before signing in' },
  'POST /api/auth/signup/buyer': { access: 'public', why: 'sign-up' },
  'POST /api/auth/signup/farmer': { access: 'public', why: 'sign-up' },
  'POST /api/auth/verification/resend': { access: 'public', why: 'the verify page, before sign-in' },
  'POST /api/auth/password/forgot': { access: 'public', why: 'forgot password, before sign-in' },
  'POST /api/auth/password/reset/check': { access: 'public', why: 'the reset link carries its own secret' },
  'POST /api/auth/password/reset': { access: 'public', why: 'the reset link carries its own secret' },
  'PUT /api/auth/me/locale': { access: 'signed-in', why: "the caller's own language (issue 13)" },
  // The browser sign-in the auth service keeps (docs/adr/0050): handed over with the caller's own bearer token;
  // then found by the HttpOnly tuber_session cookie (no bearer decides it, so `public` in this matrix).
  'POST /api/auth/session': { access: 'signed-in', why: "hands the caller's own sign-in to the auth service" },
  'POST /api/auth/session/token': {
    access: 'public',
    why: 'the HttpOnly SameSite=Strict cookie + x-tuber-session header are its credential',
  },
  'DELETE /api/auth/session': { access: 'public', why: "forgets the cookie's kept sign-in (logout)" },
  // profile: one's own profile by the token's subject; farmers' contact cards for signed-in users
  'GET /api/profile/session': { access: 'signed-in', why: 'who the token belongs to' },
  'GET /api/profile/me': { access: 'signed-in', why: "the caller's own profile" },
  'POST /api/profile/me': { access: 'signed-in', why: "creates the caller's own profile" },
  'PATCH /api/profile/me': { access: 'signed-in', why: "changes the caller's own profile" },
  'GET /api/profile/farmers/{farmerId}/contact': { access: 'signed-in', why: 'buyers contact farmers' },
  // Issue 26: a code by SMS to the caller's own profile number, and the code back (docs/adr/0070).
  'POST /api/profile/me/phone/code': { access: 'signed-in', why: "an SMS code to the caller's own profile number" },
  'POST /api/profile/me/phone/verify': { access: 'signed-in', why: "verifies the caller's own profile number" },
  // catalog: the feed for signed-in users; posting and deleting for farmers, deleting their own only
  'GET /api/catalog/products': { access: 'signed-in', why: 'the feed' },
  'GET /api/catalog/products/{productId}': { access: 'signed-in', why: 'product details' },
  'GET /api/catalog/products/mine': { access: 'farmer', why: "a farmer's own products" },
  'POST /api/catalog/products': { access: 'farmer', why: 'only farmers post products' },
  'DELETE /api/catalog/products/{productId}': { access: 'farmer', owner: true, why: 'a farmer deletes only their own products' },
  'PATCH /api/catalog/products/{productId}': { access: 'farmer', owner: true, why: 'a farmer changes only their own products' },
  // issue 27 (ADR 0072): the price guide's aggregates are for everyone, guests too; they name nobody
  'GET /api/catalog/prices/now': { access: 'public', why: "every tuber's price figures this week (aggregates only)" },
  'GET /api/catalog/prices/{tuber}/now': { access: 'public', why: "a tuber's price figures this week (aggregates only)" },
  'GET /api/catalog/prices/{tuber}/history': { access: 'public', why: "a tuber's weekly price figures, the public price page" },
  // media: farmers upload; an image record not yet attached to a product is its owner's only
  'POST /api/media/images': { access: 'farmer', why: 'only farmers upload photos' },
  'GET /api/media/images/upload-permit': { access: 'farmer', why: "the gateway asks it before reading an upload's body" },
  'GET /api/media/images/{imageId}': { access: 'signed-in', owner: true, why: "an unattached photo's record is its owner's" },
  // nutrition: public reference data
  'GET /api/nutrition/{tuberType}': { access: 'public', why: 'public reference data' },
  // orders (issue 12): a buyer sends a request to one farmer; each party sees and acts on its own
  'POST /api/orders/requests': { access: 'buyer', why: 'only buyers send order requests' },
  'GET /api/orders/requests': { access: 'signed-in', why: "the caller's own requests: sent (buyer) or received (farmer)" },
  'GET /api/orders/requests/{id}': { access: 'signed-in', parties: true, why: 'a request is its buyer’s and its farmer’s only' },
  'POST /api/orders/requests/{id}/accept': { access: 'farmer', owner: true, why: 'only the farmer asked accepts' },
  'POST /api/orders/requests/{id}/decline': { access: 'farmer', owner: true, why: 'only the farmer asked declines' },
  'POST /api/orders/requests/{id}/fulfil': { access: 'farmer', owner: true, why: 'only the farmer asked marks it fulfilled' },
  'POST /api/orders/requests/{id}/cancel': { access: 'signed-in', parties: true, why: 'either party cancels, nobody else' },
  'POST /api/orders/requests/{id}/read': { access: 'signed-in', parties: true, why: 'either party marks it read for themselves' },
  'GET /api/orders/unread': { access: 'signed-in', why: "the caller's own unread count" },
  // issue 25 (ADR 0067): EventSource sends no token, so a token buys a single-use ticket that opens the stream
  'POST /api/orders/unread/ticket': { access: 'signed-in', why: "a ticket for the caller's own live unread count" },
  'GET /api/orders/unread/stream': { access: 'public', why: 'opened by a single-use ticket, not a token; a missing or spent one is refused (400/401)' },
  'POST /api/orders/activity': { access: 'signed-in', why: "a user's view, contact or cart add; a farmer's own product is not counted" },
  'GET /api/orders/insights': { access: 'farmer', why: "a farmer's own insights" },
  // issue 24: a farmer's own list of blocked buyers; the farmer is the token's, never the caller's word
  'GET /api/orders/blocked-buyers': { access: 'farmer', why: "a farmer's own blocked buyers" },
  'PUT /api/orders/blocked-buyers/{buyerId}': { access: 'farmer', why: 'blocks a buyer who sent the calling farmer a request' },
  'DELETE /api/orders/blocked-buyers/{buyerId}': { access: 'farmer', why: "unblocks in the calling farmer's own list" },
  // issue 26: reviews from real sales; a farmer's reviews and figures are for anyone signed in
  'PUT /api/orders/requests/{id}/review': { access: 'buyer', parties: true, why: 'only the request’s buyer rates it, once it is fulfilled' },
  'PUT /api/orders/requests/{id}/review/answer': { access: 'farmer', owner: true, why: 'only the request’s farmer answers its review, once' },
  'GET /api/orders/requests/{id}/review': { access: 'signed-in', parties: true, why: 'a request’s review is read with the request by its parties' },
  'GET /api/orders/farmers/{farmerId}/reviews': { access: 'signed-in', why: "a farmer's public reviews, for buyers who never met them" },
  'GET /api/orders/farmers/{farmerId}/trust': { access: 'signed-in', why: "a farmer's rating and response figures, aggregates only" },
  'GET /api/profile/farmers/{farmerId}': { access: 'signed-in', why: "the farmer page: a farm's name, place, tubers and member since, no contact details" },
  'GET /api/catalog/farmers/{farmerId}/products': { access: 'signed-in', why: "the farmer page: a farmer's listed products, as in the feed" },
  // issue 26 (ADR 0071): anyone signed in reports what they can see (a request only its parties, else 404); the desk
  // (queue, a target's history, actions, the audit log) is the moderator realm role's alone
  'POST /api/moderation/reports': { access: 'signed-in', why: 'anyone signed in reports a product, a farm or their own request' },
  'GET /api/moderation/queue': { access: 'moderator', why: "the desk's queue of reported targets" },
  'GET /api/moderation/targets/{kind}/{id}': { access: 'moderator', why: 'a reported target with its reports and actions' },
  'POST /api/moderation/targets/{kind}/{id}/actions': { access: 'moderator', why: 'dismiss, hide/unhide a listing, suspend/restore an account' },
  'GET /api/moderation/audit': { access: 'moderator', why: 'the append-only audit log' },
};
