// Order requests (issue 12, ADR 0031): a buyer sends, the farmer accepts or declines, later marks
// fulfilled; either cancels. Every route checks who is calling: a request is seen only by its two
// parties (anyone else gets 404, as if it did not exist).
import { Type } from '@sinclair/typebox';
import {
  AcceptOrder,
  BUYER_BLOCKED,
  NewOrderRequest,
  OrderRefused,
  OrderRequest,
  OrderSendForbidden,
  OrderStatusSchema,
  Page,
  PHONE_E164_PROBLEM,
  UnreadCount,
  WithReason,
  localeOf,
  nigerianE164,
  type FieldProblem,
  type OrderStatus,
  type ProblemCode,
  type ProblemParams,
} from '@tuber/contracts';
import {
  badRequest,
  conflict,
  forbidden,
  HttpError,
  problem,
  findByValues,
  publishRecorded,
  sendProblem,
  type EventBus,
  type Problem,
  type Identity,
  type RedisClient,
  type ServiceApp,
  unavailable,
  now as clockNow,
} from '@tuber/kit';
import type { FastifyReply } from 'fastify';
import { orderEvent, type Happened } from '../domain/order-events.js';
import { blockId, nextNumber, type OrderModels, type RequestDoc } from '../domain/models.js';
import { decodeCursor, encodeCursor, presentRequest, type StoredRequest } from '../domain/present.js';
import type { ProductModel } from '../domain/products.js';
import { checkLines, refusalMessage, stockCounts, availableQuantity, type ProductView } from '../domain/send-checks.js';
import { acceptedQuantities, decide, neverTheirs, twoDecimalsOrLess, type OrderAction, type Party } from '../domain/state-machine.js';
import { stockSnapshot } from '../domain/stock.js';
import { contactLockKey, productLockKey, requestLockKey, withLocks } from '../domain/locks.js';
import { findForParty } from '../domain/parties.js';
import { formatQuantity } from '../domain/words.js';
import { presentReview } from '../reviews/present.js';
import type { ReviewDoc, ReviewModels } from '../reviews/model.js';
import { unreadStreamRoutes, type UnreadStreamDeps } from './unread-stream.js';
import { bodyOrEmpty, EmptyBody } from './empty-body.js';

export interface RequestRoutesDeps {
  models: OrderModels;
  /** The reviews of fulfilled requests, shown with them (issue 26). */
  reviews?: ReviewModels;
  products: ProductModel;
  bus: EventBus;
  redis: RedisClient;
  /** Other bounds for the live unread streams (tests); defaults in unread-stream.ts. */
  streamLimits?: UnreadStreamDeps['limits'];
}

/** Live unread counts (docs/adr/0067): these people's counts may have moved. */
export type UnreadChanged = (userIds: readonly string[]) => void;

/**
 * Sends a buyer may attempt in a window, refused ones included (each that goes lands in a farmer's
 * inbox and mailbox). A cart goes out as one request per farmer, and a refusal is sent again after
 * a fix, so the bound is generous for a person and tight for a script.
 */
export const SEND_LIMIT = { max: 60, windowSeconds: 600 } as const;
/** What a blocked buyer reads (403 BUYER_BLOCKED): why, and what they can still do. */
export const BLOCKED_MESSAGE =
  'This farmer is not taking order requests from you. Nothing was sent and your cart is unchanged; you can ask another farmer for these products.';
export const PAGE_DEFAULT = 20;
export const PAGE_MAX = 50;

const err = Type.Ref('ErrorResponse');
const RequestParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const ListQuery = Type.Object(
  {
    status: Type.Optional(OrderStatusSchema),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_MAX, default: PAGE_DEFAULT })),
  },
  { additionalProperties: false },
);


const isDuplicateKey = (e: unknown) => (e as { code?: number })?.code === 11000;

/** The caller's side by realm role (a token has one of the two). */
function partyOf(identity: Identity): Party {
  if (identity.roles.includes('farmer')) return 'farmer';
  if (identity.roles.includes('buyer')) return 'buyer';
  throw forbidden('NOT_BUYER_OR_FARMER', 'Only buyers and farmers have order requests. Finish setting up your account first.');
}

const str = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The buyer's name as the token carries it (Keycloak's given/family name, or the sign-up attributes). */
export function buyerNameFromClaims(claims: Record<string, unknown>): string {
  const first = str(claims.given_name) || str(claims.firstname);
  const last = str(claims.family_name) || str(claims.lastname);
  const name = [first, last].filter(Boolean).join(' ') || str(claims.name) || str(claims.preferred_username);
  return name.slice(0, 120) || 'A buyer';
}

/** Today's calendar day in Nigeria (Africa/Lagos), YYYY-MM-DD. */
export function lagosToday(now: Date = clockNow()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

const isCalendarDay = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
};

/** Input problems a person can fix (400), before anything is looked up. */
export function checkNewRequestInput(body: NewOrderRequest, today: string): Problem | undefined {
  if (body.fulfilment === 'delivery' && !str(body.address)) return problem('DELIVERY_ADDRESS_MISSING', 'Give a delivery address, or choose pickup.');
  if (!isCalendarDay(body.preferred_date)) {
    return problem('PREFERRED_DATE_INVALID', `"${body.preferred_date}" is not a date; choose a preferred date from the calendar.`);
  }
  if (body.preferred_date < today) return problem('PREFERRED_DATE_PASSED', 'The preferred date has passed; choose today or a later day.');
  const ids = new Set<string>();
  for (const line of body.lines) {
    if (ids.has(line.product_id)) {
      return problem('PRODUCT_TWICE', 'A product is in the request twice; send each product once with its total quantity.');
    }
    ids.add(line.product_id);
    if (!twoDecimalsOrLess(line.quantity)) return problem('QUANTITY_DECIMALS', 'Quantities may have at most 2 decimals.');
    if (!twoDecimalsOrLess(line.price)) return problem('PRICE_DECIMALS', 'Prices may have at most 2 decimals (kobo).');
  }
  return undefined;
}

export function requestRoutes(app: ServiceApp, deps: RequestRoutesDeps) {
  const { models, products, bus, redis } = deps;
  // Live streams of unread counts (docs/adr/0067): every write that moves a count tells them.
  const streams = unreadStreamRoutes(app, {
    bus,
    redis,
    partyOf,
    count: (party, userId) => countUnread(party, userId),
    ...(deps.streamLimits ? { limits: deps.streamLimits } : {}),
  });
  const unreadChanged: UnreadChanged = (ids) => streams.changed(ids);
  const { Request, Contact, BlockedBuyer } = models;

  async function businessNameOf(farmerId: string): Promise<string> {
    const contact = await Contact.findOne({ user_id: farmerId }, { business_name: 1 }).lean();
    return contact?.business_name ?? '';
  }

  /** The reviews of these requests that have one (only fulfilled requests can), by request id. */
  async function reviewsOf(docs: readonly StoredRequest[]): Promise<Map<string, ReviewDoc>> {
    const fulfilled = docs.filter((doc) => doc.status === 'fulfilled').map((doc) => doc.request_id);
    if (!deps.reviews || fulfilled.length === 0) return new Map();
    const found = await findByValues<ReviewDoc>(deps.reviews.Review, 'request_id', fulfilled);
    return new Map(found.map((review) => [review.request_id, review]));
  }

  async function present(doc: StoredRequest, party: Party) {
    const review = (await reviewsOf([doc])).get(doc.request_id);
    return presentRequest(doc, party, doc.business_name ? undefined : await businessNameOf(doc.farmer_id), review && presentReview(review));
  }

  /** The request if the caller is one of its parties; 404 otherwise (its existence is not revealed). */
  const findForCaller = (requestId: string, identity: Identity) => findForParty(Request, requestId, identity);

  /**
   * Who may act, before what they sent is judged: anyone but the request's two parties gets 404
   * (as for an id that does not exist) and a party that may never take the action 403, even with a
   * body that would not pass validation.
   */
  const partiesOnly = (action?: OrderAction) => async (request: { params: unknown; identity: Identity }) => {
    const id = (request.params as { id?: unknown }).id;
    if (typeof id !== 'string' || id.length === 0 || id.length > 64) return; // the params schema answers
    const { party } = await findForCaller(id, request.identity);
    const refusal = action && neverTheirs(action, party);
    if (refusal) throw forbidden(refusal);
  };

  const refuse = (reply: FastifyReply, refusal: Problem, problems: OrderRefused['problems'] = []) =>
    sendProblem(reply, 409, refusal, { problems });

  // ---------------------------------------------------------------- send
  app.post(
    '/api/orders/requests',
    {
      onRequest: [
        app.requireRole('buyer'),
        app.limitPerUser({
          name: 'order-requests',
          max: SEND_LIMIT.max,
          timeWindow: SEND_LIMIT.windowSeconds * 1000,
          what: 'order requests',
        }),
      ],
      schema: {
        summary: 'Send an order request to one farmer (buyer)',
        description:
          'Idempotent by the client-chosen request_id: the same id again answers the request already sent (200). Refused with 409 and one problem per line when a line is unavailable, sold out, above stock, or its price or unit changed. ' +
          'Refused with 403 and code BUYER_BLOCKED when the farmer blocked the caller.',
        security: [{ bearer: [] }],
        body: NewOrderRequest,
        response: {
          200: OrderRequest,
          201: OrderRequest,
          400: err,
          401: err,
          403: OrderSendForbidden,
          409: OrderRefused,
          429: err,
          503: err,
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const buyerId = request.identity.userId;
      const existing = await Request.findOne({ request_id: body.request_id }).lean<RequestDoc>();
      if (existing) {
        if (existing.buyer_id !== buyerId)
          return refuse(reply, problem('REQUEST_ID_TAKEN', 'This request id is already taken. Send the request again from your cart: it will get a new id.'));
        return reply.code(200).send((await present(existing, 'buyer')) as never);
      }
      // A farmer's inbox is theirs (issue 24): a buyer they blocked sends them nothing new.
      if (await BlockedBuyer.exists({ _id: blockId(body.farmer_id, buyerId) })) {
        request.log.info({ farmerId: body.farmer_id }, 'order request refused: the farmer blocked this buyer');
        return sendProblem(reply, 403, problem(BUYER_BLOCKED, BLOCKED_MESSAGE));
      }
      const phone = nigerianE164(body.phone);
      if (!phone) throw badRequest('PHONE_INVALID', PHONE_E164_PROBLEM);
      const inputProblem = checkNewRequestInput(body, lagosToday());
      if (inputProblem) throw badRequest(inputProblem);

      const ids = body.lines.map((line) => line.product_id);
      const { copies, held } = await stockSnapshot(models, products, ids, body.farmer_id);
      const byId = new Map<string, ProductView>(copies.map((p) => [p.product_id, p as ProductView]));
      for (const copy of copies) {
        if (copy.farmer_id !== body.farmer_id && !copy.deleted) {
          const product = copy.product_name || 'A product';
          throw badRequest('OTHER_FARMERS_PRODUCT', `${product} is sold by another farmer; send it in that farmer's request.`, { product });
        }
      }
      const problems = checkLines(body.lines, byId, held);
      if (problems.length) return refuse(reply, problem('ORDER_REFUSED', refusalMessage(problems, byId)), problems);

      // The buyer's address for notifications, if no event has brought one yet (a newer one replaces it).
      if (request.identity.emailVerified && request.identity.email) {
        const email = request.identity.email;
        // Under the contact's lock, like the events' writes of it (FerretDB writes the whole document back).
        await withLocks(
          redis,
          [contactLockKey(buyerId)],
          () =>
            Contact.updateOne(
              { user_id: buyerId },
              { $setOnInsert: { email, email_at: new Date(0), user_type: 'buyer' } },
              { upsert: true },
            ).catch((e: unknown) => {
              if (!isDuplicateKey(e)) throw e;
            }),
          { busy: () => unavailable('SENDING_BUSY', 'Sending is busy for a moment; please send the request again.', 2) },
        );
      }

      // The kit's clock: real time, or the seeder's simulated one on the local stack (docs/adr/0072).
      const now = clockNow();
      const lines = body.lines.map((line) => {
        const product = byId.get(line.product_id)!;
        return {
          product_id: line.product_id,
          product_name: product.product_name,
          unit: product.unit,
          quantity: line.quantity,
          price_kobo: product.price_kobo,
        };
      });
      // The buyer's language now (issue 13): their mails' language until their account's own is known.
      const buyerLocale = localeOf(request.identity.claims.locale);
      const draft = {
        request_id: body.request_id,
        number: '',
        buyer_id: buyerId,
        buyer_name: buyerNameFromClaims(request.identity.claims),
        buyer_phone: phone,
        farmer_id: body.farmer_id,
        business_name: await businessNameOf(body.farmer_id),
        lines,
        fulfilment: body.fulfilment,
        ...(body.fulfilment === 'delivery' ? { address: str(body.address) } : {}),
        preferred_date: body.preferred_date,
        ...(str(body.note) ? { note: str(body.note) } : {}),
        ...(buyerLocale ? { buyer_locale: buyerLocale } : {}),
        status: 'sent' as const,
        history: [{ status: 'sent' as const, at: now, by: 'buyer' as const }],
        created_at: now,
        updated_at: now,
        revision: 1,
        last_change_by: 'buyer' as const,
        seen_buyer: 1,
        seen_farmer: 0,
        unread_buyer: false,
        unread_farmer: true,
      };
      const doc = { ...draft, number: await nextNumber(models, redis) };
      try {
        await Request.create({ ...doc, outbox: [orderEvent(doc, 1, now, { status: 'sent' })] });
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
        // The same request sent twice at once: the first one stands.
        const first = await Request.findOne({ request_id: body.request_id }).lean<RequestDoc>();
        if (first?.buyer_id !== buyerId)
          return refuse(reply, problem('REQUEST_ID_TAKEN', 'This request id is already taken. Send the request again from your cart: it will get a new id.'));
        return reply.code(200).send((await present(first, 'buyer')) as never);
      }
      await publishRecorded(Request, { request_id: body.request_id }, bus, request.log);
      unreadChanged([body.farmer_id]);
      request.log.info(
        { requestId: body.request_id, number: doc.number, farmerId: body.farmer_id, lines: lines.length },
        'order request sent',
      );
      return reply.code(201).send(presentRequest(doc, 'buyer') as never);
    },
  );

  // ---------------------------------------------------------------- read
  app.get(
    '/api/orders/requests',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "The caller's order requests, newest first (a buyer's sent ones, a farmer's received ones)",
        security: [{ bearer: [] }],
        querystring: ListQuery,
        response: { 200: Page(OrderRequest), 400: err, 401: err, 403: err },
      },
    },
    async (request) => {
      const party = partyOf(request.identity);
      const { status, cursor, limit = PAGE_DEFAULT } = request.query;
      const filter: Record<string, unknown> = { [party === 'buyer' ? 'buyer_id' : 'farmer_id']: request.identity.userId };
      if (status) filter.status = status;
      if (cursor) {
        const after = decodeCursor(cursor);
        if (!after) throw badRequest('PAGE_LINK_INVALID', 'This page link is not valid any more; start again from the first page.');
        const at = new Date(after.c);
        filter.$or = [{ created_at: { $lt: at } }, { created_at: at, request_id: { $lt: after.i } }];
      }
      const docs = await Request.find(filter, { outbox: 0 })
        .sort({ created_at: -1, request_id: -1 })
        .limit(limit + 1)
        .lean<RequestDoc[]>();
      const page = docs.slice(0, limit);
      const names = new Map<string, string>();
      for (const doc of page)
        if (!doc.business_name && !names.has(doc.farmer_id)) names.set(doc.farmer_id, await businessNameOf(doc.farmer_id));
      const reviews = await reviewsOf(page);
      return {
        items: page.map((doc) => {
          const review = reviews.get(doc.request_id);
          return presentRequest(doc, party, names.get(doc.farmer_id), review && presentReview(review));
        }),
        next_cursor: docs.length > limit ? encodeCursor(page[page.length - 1]!) : null,
      };
    },
  );

  app.get(
    '/api/orders/unread',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'How many of my requests the other party changed since I last opened them (the stream’s fallback; ADR 0067)',
        security: [{ bearer: [] }],
        response: { 200: UnreadCount, 401: err, 403: err },
      },
    },
    async (request) => ({ count: await unreadCount(request.identity) }),
  );

  async function unreadCount(identity: Identity): Promise<number> {
    return countUnread(partyOf(identity), identity.userId);
  }

  function countUnread(party: Party, userId: string): Promise<number> {
    return party === 'buyer'
      ? Request.countDocuments({ buyer_id: userId, unread_buyer: true })
      : Request.countDocuments({ farmer_id: userId, unread_farmer: true });
  }

  app.get(
    '/api/orders/requests/:id',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'One order request (its buyer or farmer only)',
        security: [{ bearer: [] }],
        params: RequestParams,
        response: { 200: OrderRequest, 400: err, 401: err, 404: err },
      },
    },
    async (request) => {
      const { doc, party } = await findForCaller(request.params.id, request.identity);
      return present(doc, party);
    },
  );

  app.post(
    '/api/orders/requests/:id/read',
    {
      onRequest: app.authenticate,
      preValidation: [bodyOrEmpty, partiesOnly()],
      schema: {
        summary: 'The caller has seen the request as it is now; answers the unread count left',
        security: [{ bearer: [] }],
        params: RequestParams,
        body: EmptyBody,
        response: { 200: UnreadCount, 400: err, 401: err, 404: err, 409: err },
      },
    },
    async (request) => {
      const requestId = request.params.id;
      await withLocks(
        redis,
        [requestLockKey(requestId)],
        async () => {
          const { doc, party } = await findForCaller(requestId, request.identity);
          const seen =
            party === 'buyer' ? { seen_buyer: doc.revision, unread_buyer: false } : { seen_farmer: doc.revision, unread_farmer: false };
          await Request.updateOne({ request_id: requestId, revision: doc.revision }, { $set: seen });
        },
        { busy: () => conflict('REQUEST_BUSY', 'This request is being changed right now; open it again in a moment.') },
      );
      // The person's other tabs and phones drop their badge too.
      unreadChanged([request.identity.userId]);
      return { count: await unreadCount(request.identity) };
    },
  );

  // ---------------------------------------------------------------- transitions
  const transitionErrors = { 400: err, 401: err, 403: err, 404: err, 409: err };

  /**
   * One transition: under the request's lock (and, to accept, its products' locks), read it, ask the
   * state machine, write status + history + revision + unread flags + event in one conditional
   * update, publish the event.
   */
  async function transition(
    identity: Identity,
    requestId: string,
    action: OrderAction,
    input: { reason?: string | undefined; lines?: { product_id: string; quantity: number }[] | undefined },
    log: ServiceApp['log'],
  ) {
    const peek = await findForCaller(requestId, identity);
    const keys = [requestLockKey(requestId), ...(action === 'accept' ? peek.doc.lines.map((line) => productLockKey(line.product_id)) : [])];
    const result = await withLocks(
      redis,
      keys,
      async () => {
        const { doc, party } = await findForCaller(requestId, identity);
        const reason = input.reason?.trim() || undefined;
        let lowered = false;
        let quantities: Map<string, number> | undefined;
        if (action === 'accept') {
          const accepted = acceptedQuantities(doc.lines, input.lines ?? []);
          if (!accepted.ok) throw badRequest(accepted.problem);
          quantities = accepted.quantities;
          lowered = accepted.lowered;
        }
        const verdict = decide(doc.number, doc.status as OrderStatus, action, party, { reason, lowered });
        if (!verdict.ok) throw new HttpError(verdict.status, verdict.problem);
        const to = verdict.transition.to;
        if (action === 'accept') await checkStockToAccept(doc, quantities!, log);

        const now = clockNow();
        const revision = doc.revision + 1;
        const lines = doc.lines.map((line) => (quantities ? { ...line, accepted_quantity: quantities.get(line.product_id)! } : line));
        const happened: Happened =
          to === 'accepted'
            ? { status: 'accepted', reason }
            : to === 'declined'
              ? { status: 'declined', reason: reason! }
              : to === 'fulfilled'
                ? { status: 'fulfilled' }
                : to === 'cancelled'
                  ? { status: 'cancelled', reason: reason!, by: party, wasAccepted: doc.status === 'accepted' }
                  : { status: 'sent' };
        const other: Party = party === 'buyer' ? 'farmer' : 'buyer';
        const set: Record<string, unknown> = {
          status: to,
          revision,
          updated_at: now,
          last_change_by: party,
          [`seen_${party}`]: revision,
          [`unread_${party}`]: false,
          [`unread_${other}`]: true,
        };
        if (quantities) set.lines = lines;
        // The farmer's own number, for the buyer's "accepted" mail (issue 25): from the token, as sign-up kept it.
        if (to === 'accepted') {
          const farmerPhone = nigerianE164(typeof identity.claims.phone === 'string' ? identity.claims.phone : '');
          if (farmerPhone) set.farmer_phone = farmerPhone;
        }
        const entry = { status: to, at: now, by: party, ...(reason ? { reason } : {}) };
        const event = orderEvent({ ...doc, lines }, revision, now, happened);
        const written = await Request.updateOne(
          { request_id: requestId, status: doc.status, revision: doc.revision },
          { $set: set, $push: { history: entry, outbox: event } },
        );
        if (written.matchedCount === 0)
          throw conflict('REQUEST_CHANGED', `${doc.number} changed meanwhile; open it again to see what changed, then try again.`, {
            number: doc.number,
          });
        log.info({ requestId, number: doc.number, from: doc.status, to, by: party, revision }, 'order request changed');
        return { party };
      },
      {
        busy: () =>
          conflict('REQUEST_BUSY', 'This request is being changed by someone else right now; open it again in a moment and try again.'),
      },
    );
    await publishRecorded(Request, { request_id: requestId }, bus, log);
    const after = await Request.findOne({ request_id: requestId }).lean<RequestDoc>();
    unreadChanged([after!.buyer_id, after!.farmer_id]);
    return present(after!, result.party);
  }

  /** Under the products' locks: is there enough not yet promised for every accepted quantity? */
  async function checkStockToAccept(doc: RequestDoc, quantities: Map<string, number>, log: ServiceApp['log']) {
    const ids = doc.lines.map((line) => line.product_id);
    const { copies, held } = await stockSnapshot(models, products, ids, doc.farmer_id);
    log.info(
      {
        requestId: doc.request_id,
        stock: copies.map((p) => ({ product: p.product_id, quantity: p.quantity, status: p.status, held: held.get(p.product_id) ?? 0 })),
      },
      'stock checked to accept',
    );
    const byId = new Map(copies.map((p) => [p.product_id, p]));
    // One entry per line that cannot be accepted, each with its code; the message says them all.
    const short: FieldProblem[] = [];
    const lineProblem = (line: (typeof doc.lines)[number], code: ProblemCode, detail: string, params: ProblemParams = {}) =>
      short.push({ field: `lines.${line.product_id}`, code, detail, params: { product: line.product_name, ...params } });
    for (const line of doc.lines) {
      const product = byId.get(line.product_id);
      const want = quantities.get(line.product_id)!;
      const name = line.product_name;
      if (!product || product.deleted || (product as { hidden?: boolean }).hidden) {
        lineProblem(line, 'STOCK_UNLISTED', `${name} is no longer listed; decline the request, or ask the buyer to send one without it.`);
      } else if (product.unit !== line.unit) {
        lineProblem(line, 'STOCK_UNIT_CHANGED', `${name} is now sold in another unit; decline the request and ask the buyer to send it again.`);
      } else if (product.status === 'sold_out') {
        lineProblem(line, 'STOCK_SOLD_OUT', `${name} is sold out; add stock to it first, or decline.`);
      } else if (stockCounts(product)) {
        const available = availableQuantity(product, held.get(line.product_id) ?? 0);
        if (want > available) {
          if (available > 0) {
            lineProblem(line, 'STOCK_ONLY_LEFT', `Only ${formatQuantity(available, line.unit)} of ${name} left; lower the quantity or decline.`, {
              quantity: available,
              unit: line.unit,
            });
          } else {
            lineProblem(line, 'STOCK_ALL_PROMISED', `No ${name} is left that is not already promised; update its stock first, or decline.`);
          }
        }
      }
    }
    if (short.length) throw conflict({ code: 'STOCK_SHORT', message: short.map((s) => s.detail).join(' '), errors: short });
  }

  const transitionRoute = (
    action: OrderAction,
    path: string,
    summary: string,
    body: typeof WithReason | typeof AcceptOrder | typeof EmptyBody,
  ) =>
    app.post(
      `/api/orders/requests/:id/${path}`,
      {
        onRequest: app.authenticate,
        preValidation: [bodyOrEmpty, partiesOnly(action)],
        schema: { summary, security: [{ bearer: [] }], params: RequestParams, body, response: { 200: OrderRequest, ...transitionErrors } },
      },
      async (request) => {
        const input = (request.body ?? {}) as { reason?: string; lines?: { product_id: string; quantity: number }[] };
        return transition(request.identity, (request.params as { id: string }).id, action, input, request.log);
      },
    );

  transitionRoute(
    'accept',
    'accept',
    'Accept a sent request, optionally lowering quantities with a reason (farmer); holds the stock',
    AcceptOrder,
  );
  transitionRoute('decline', 'decline', 'Decline a sent request, with a reason (farmer)', WithReason);
  transitionRoute('fulfil', 'fulfil', 'Mark an accepted request fulfilled (farmer)', EmptyBody);
  transitionRoute('cancel', 'cancel', 'Cancel a request, with a reason (the buyer before it is accepted; either party after)', WithReason);
}
