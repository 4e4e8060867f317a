// Reviews from real sales and a farmer's trust figures (issue 26, docs/adr/0069).
//  - PUT  /api/orders/requests/:id/review          the request's buyer, once it is fulfilled: writes or changes
//                                                  (for REVIEW_EDIT_DAYS) the one review of that request
//  - PUT  /api/orders/requests/:id/review/answer   the request's farmer: one public answer
//  - GET  /api/orders/requests/:id/review          either party
//  - GET  /api/orders/farmers/:farmerId/reviews    anyone signed in: a farmer's reviews, newest first
//  - GET  /api/orders/farmers/:farmerId/trust      anyone signed in: rating and response figures
// Each write of a review recomputes the farmer's rating summary under the farmer's lock and records a
// FarmerRatingChanged event with it (outbox, rating.ts), which the catalog copies onto the product cards. The reviews
// of a suspended account neither count nor show on the farmer's page (standing.ts).
import { Type } from '@sinclair/typebox';
import { FarmerTrust, Review, ReviewAnswerInput, ReviewInput, ReviewPage, REVIEW_EDIT_DAYS, RESPONSE_WINDOW_DAYS } from '@tuber/contracts';
import { badRequest, conflict, forbidden, notFound, withLocks, type Identity, type RedisClient, type ServiceApp } from '@tuber/kit';
import type { OrderModels, RequestDoc } from '../domain/models.js';
import { findForParty } from '../domain/parties.js';
import { decodeCursor, encodeCursor } from '../domain/present.js';
import { publicBuyerName, ratingOf, responseFigures } from './figures.js';
import { reviewLockKey, type ReviewDoc, type ReviewModels } from './model.js';
import { presentReview } from './present.js';
import { COUNTED_REVIEWS, type RecountRating } from './rating.js';

export { presentReview };

export interface ReviewRoutesDeps {
  models: OrderModels;
  reviews: ReviewModels;
  redis: RedisClient;
  /** The rating recount (rating.ts), shared with the moderation consumer. */
  recount: RecountRating;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const err = Type.Ref('ErrorResponse');
const RequestParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const FarmerParams = Type.Object({ farmerId: Type.String({ minLength: 1, maxLength: 64 }) });
const PageQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
  },
  { additionalProperties: false },
);
/** Reviews and answers one person may write in a window: plenty for a person, little for a script. */
export const REVIEW_WRITE_LIMIT = { max: 30, windowSeconds: 600 } as const;

const isDuplicateKey = (e: unknown) => (e as { code?: number })?.code === 11000;

export function reviewRoutes(app: ServiceApp, deps: ReviewRoutesDeps) {
  const { Request } = deps.models;
  const { Review: Reviews } = deps.reviews;
  const recountRating = deps.recount;
  const limitWrites = app.limitPerUser({
    name: 'reviews',
    max: REVIEW_WRITE_LIMIT.max,
    timeWindow: REVIEW_WRITE_LIMIT.windowSeconds * 1000,
    what: 'reviews',
  });
  const busy = () => conflict('REVIEW_BUSY', 'This review is being changed right now; try again in a moment.');

  const requestOfParty = (requestId: string, identity: Identity) => findForParty(Request, requestId, identity);

  /** Anyone but the request's two parties gets 404 before what they sent is judged (as if it did not exist). */
  const partiesOnly = async (request: { params: unknown; identity: Identity }) => {
    const id = (request.params as { id?: unknown }).id;
    if (typeof id !== 'string' || id.length === 0 || id.length > 64) return; // the params schema answers
    await requestOfParty(id, request.identity);
  };

  /**
   * Recounts after a review is written, without failing the answer: the review is saved whatever happens here.
   * A recount that cannot run now (the farmer's rating lock busy, the database or Redis away) is tried again
   * once a few seconds later; after that the next review of this farmer brings the cards up to date, and the
   * trust route always counts from the reviews themselves.
   */
  async function recountAfterWrite(farmerId: string, log: ServiceApp['log']) {
    try {
      await recountRating(farmerId, log);
    } catch (err) {
      log.warn({ err, farmerId }, "the farmer's rating could not be recounted now; trying again in 5 s");
      setTimeout(() => {
        recountRating(farmerId, log).catch((again: unknown) =>
          log.error(
            { err: again, farmerId },
            "the farmer's rating could not be recounted; the cards show the old one until the next review",
          ),
        );
      }, 5_000).unref();
    }
  }

  app.put(
    '/api/orders/requests/:id/review',
    {
      onRequest: [app.requireRole('buyer'), limitWrites],
      preValidation: partiesOnly,
      schema: {
        summary: 'Rate a fulfilled request, or change its rating (its buyer)',
        description:
          `One review per request, written once the request is fulfilled (409 REVIEW_NOT_YET before), and changeable for ${REVIEW_EDIT_DAYS} days ` +
          '(409 REVIEW_EDIT_CLOSED after). Answers 201 when written, 200 when changed.',
        security: [{ bearer: [] }],
        params: RequestParams,
        body: ReviewInput,
        response: { 200: Review, 201: Review, 400: err, 401: err, 403: err, 404: err, 409: err, 429: err },
      },
    },
    async (request, reply) => {
      const requestId = request.params.id;
      const { doc, party } = await requestOfParty(requestId, request.identity);
      if (party !== 'buyer') throw forbidden('ROLE_REQUIRED', 'Only the buyer of a request can rate it.', { role: 'buyer' });
      if (doc.status !== 'fulfilled')
        throw conflict('REVIEW_NOT_YET', `Request ${doc.number} can be rated once the farmer marks it fulfilled.`, { number: doc.number });
      const text = (request.body.text ?? '').trim();
      const now = new Date();
      const result = await withLocks(
        deps.redis,
        [reviewLockKey(requestId)],
        async () => {
          const existing = await Reviews.findOne({ request_id: requestId }).lean<ReviewDoc>();
          if (existing) {
            if (now.getTime() > new Date(existing.created_at).getTime() + REVIEW_EDIT_DAYS * DAY_MS)
              throw conflict('REVIEW_EDIT_CLOSED', `A review can be changed for ${REVIEW_EDIT_DAYS} days after it was written.`, {
                days: REVIEW_EDIT_DAYS,
              });
            await Reviews.updateOne({ request_id: requestId }, { $set: { stars: request.body.stars, text, updated_at: now } });
            return { created: false };
          }
          try {
            await Reviews.create({
              request_id: requestId,
              number: doc.number,
              farmer_id: doc.farmer_id,
              buyer_id: doc.buyer_id,
              buyer_name: publicBuyerName(doc.buyer_name),
              stars: request.body.stars,
              text,
              products: doc.lines.map((line) => line.product_name),
              created_at: now,
              updated_at: now,
            });
          } catch (e) {
            if (isDuplicateKey(e)) throw busy();
            throw e;
          }
          return { created: true };
        },
        { busy },
      );
      await recountAfterWrite(doc.farmer_id, request.log);
      const saved = await Reviews.findOne({ request_id: requestId }).lean<ReviewDoc>();
      request.log.info({ requestId, farmerId: doc.farmer_id, stars: request.body.stars, created: result.created }, 'review written');
      return reply.code(result.created ? 201 : 200).send(presentReview(saved!));
    },
  );

  app.put(
    '/api/orders/requests/:id/review/answer',
    {
      onRequest: [app.requireRole('farmer'), limitWrites],
      preValidation: partiesOnly,
      schema: {
        summary: "Answer a request's review in public, once (its farmer)",
        description: '404 REVIEW_NOT_FOUND while the request has no review; 409 REVIEW_ALREADY_ANSWERED after the one answer.',
        security: [{ bearer: [] }],
        params: RequestParams,
        body: ReviewAnswerInput,
        response: { 200: Review, 400: err, 401: err, 403: err, 404: err, 409: err, 429: err },
      },
    },
    async (request) => {
      const requestId = request.params.id;
      const { party } = await requestOfParty(requestId, request.identity);
      if (party !== 'farmer') throw forbidden('ROLE_REQUIRED', "Only the request's farmer can answer its review.", { role: 'farmer' });
      const text = request.body.text.trim();
      if (!text) throw badRequest('FIELD_EMPTY', 'Write an answer first.', { field: 'text' });
      await withLocks(
        deps.redis,
        [reviewLockKey(requestId)],
        async () => {
          const existing = await Reviews.findOne({ request_id: requestId }).lean<ReviewDoc>();
          if (!existing) throw notFound('REVIEW_NOT_FOUND', 'This request has no review to answer yet.');
          if (existing.answer_text)
            throw conflict('REVIEW_ALREADY_ANSWERED', 'You have answered this review already; an answer is given once.');
          await Reviews.updateOne({ request_id: requestId }, { $set: { answer_text: text, answer_at: new Date() } });
        },
        { busy },
      );
      request.log.info({ requestId }, 'review answered');
      return presentReview((await Reviews.findOne({ request_id: requestId }).lean<ReviewDoc>())!);
    },
  );

  app.get(
    '/api/orders/requests/:id/review',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "A request's review (its buyer or farmer)",
        security: [{ bearer: [] }],
        params: RequestParams,
        response: { 200: Review, 400: err, 401: err, 404: err },
      },
    },
    async (request) => {
      await requestOfParty(request.params.id, request.identity);
      const review = await Reviews.findOne({ request_id: request.params.id }).lean<ReviewDoc>();
      if (!review) throw notFound('REVIEW_NOT_FOUND', 'This request has no review yet.');
      return presentReview(review);
    },
  );

  app.get(
    '/api/orders/farmers/:farmerId/reviews',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "A farmer's reviews, newest first (anyone signed in)",
        security: [{ bearer: [] }],
        params: FarmerParams,
        querystring: PageQuery,
        response: { 200: ReviewPage, 400: err, 401: err },
      },
    },
    async (request) => {
      const { cursor, limit = 10 } = request.query;
      const filter: Record<string, unknown> = { farmer_id: request.params.farmerId, ...COUNTED_REVIEWS };
      if (cursor) {
        const after = decodeCursor(cursor);
        if (!after) throw badRequest('PAGE_LINK_INVALID', 'This page link is not valid any more; start again from the first page.');
        const at = new Date(after.c);
        filter.$or = [{ created_at: { $lt: at } }, { created_at: at, request_id: { $lt: after.i } }];
      }
      const docs = await Reviews.find(filter)
        .sort({ created_at: -1, request_id: -1 })
        .limit(limit + 1)
        .lean<ReviewDoc[]>();
      const page = docs.slice(0, limit);
      return {
        items: page.map(presentReview),
        next_cursor: docs.length > limit ? encodeCursor(page[page.length - 1]!) : null,
      };
    },
  );

  app.get(
    '/api/orders/farmers/:farmerId/trust',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "A farmer's rating and response figures (anyone signed in)",
        description: `The rating gives its mean only from 3 reviews. The response figures cover the last ${RESPONSE_WINDOW_DAYS} days and are absent below 5 requests.`,
        security: [{ bearer: [] }],
        params: FarmerParams,
        response: { 200: FarmerTrust, 400: err, 401: err },
      },
    },
    async (request) => {
      const farmerId = request.params.farmerId;
      const now = new Date();
      const [reviews, requests] = await Promise.all([
        Reviews.find({ farmer_id: farmerId, ...COUNTED_REVIEWS }, { stars: 1 }).lean<Pick<ReviewDoc, 'stars'>[]>(),
        Request.find(
          { farmer_id: farmerId, created_at: { $gte: new Date(now.getTime() - RESPONSE_WINDOW_DAYS * DAY_MS) } },
          { created_at: 1, history: 1 },
        ).lean<Pick<RequestDoc, 'created_at' | 'history'>[]>(),
      ]);
      const response = responseFigures(requests, now);
      return {
        farmer_id: farmerId,
        rating: ratingOf(
          reviews.length,
          reviews.reduce((sum, review) => sum + review.stars, 0),
        ),
        ...(response ? { response } : {}),
      };
    },
  );
}
