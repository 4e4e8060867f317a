// A farmer's own products: post, list, edit, delete. farmer_id always comes from the token.
import { Type } from '@sinclair/typebox';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_REUSED,
  NewProduct,
  Product as ProductResponse,
  ProductChange,
  ProductChanged,
  ProductCreated,
  ProductDeleted,
  ProductPostHeaders,
  ProductPostKeyReused,
  type EventPayload,
} from '@tuber/contracts';
import {
  badRequest,
  conflict,
  findByValues,
  forbidden,
  notFound,
  pendingEvent,
  problem,
  publishRecorded,
  sendProblem,
  type EventBus,
  type RedisClient,
  type ServiceApp,
  now as clockNow,
} from '@tuber/kit';
import { randomUUID } from 'node:crypto';
import { withProductLock } from '../domain/product-lock.js';
import {
  checkImageCount,
  checkNewProduct,
  checkSelling,
  IMAGES_IN_USE_MESSAGE,
  lagosToday,
  OWN_PHOTOS_MESSAGE,
  sellingAfterChange,
  setsHarvestDate,
} from '../domain/new-product.js';
import { KEY_REUSED_MESSAGE, postFingerprint, postKeyOf, postKeys, type PostKeyModel, type PostKeyVerdict } from '../domain/post-keys.js';
import { feedBucketOf, nextFeedSeq, toApiProduct, type ProductDocument, type ProductModel } from '../domain/product.js';
import type { ImageCopy, Projections } from '../domain/projections.js';
import { searchTermsOf } from '../domain/search-terms.js';
import type { ReadModel } from '../domain/read-model.js';
import type { Connection } from 'mongoose';

export interface FarmerProductDeps {
  Product: ProductModel;
  /** The Idempotency-Keys of product posts (ADR 0059). */
  PostKey: PostKeyModel;
  connection: Connection;
  readModel: ReadModel;
  projections: Projections;
  bus: EventBus;
  /** Holds the per-product write lock (see withProductLock). */
  redis: RedisClient;
  /** How long to wait for a just-uploaded image's event to reach the catalog. */
  imageWaitMs?: number;
}

/**
 * Product posts per farmer (by token subject) in a window: far above what a person posting by
 * hand reaches (each product needs 2-5 fresh photos), low enough that no account can flood the
 * feed or the database. Invalid posts count too.
 */
export const PRODUCT_POST_LIMIT = { max: 60, windowSeconds: 600 };

/** Product edits per farmer in a window: a farmer updating stock and prices of a long list by hand stays far below. */
export const PRODUCT_EDIT_LIMIT = { max: 120, windowSeconds: 600 };

export const NOT_FOUND_MESSAGE = 'This product does not exist or has been removed.';
export const NOT_YOURS_MESSAGE = 'You can only change your own products.';
export const STALE_MESSAGE = 'This product was changed elsewhere; reload it and try again.';

/** The API names of the fields an edit may change, in the order the `changed` list of ProductChanged gives them. */
const EDITABLE = [
  'product_name',
  'description',
  'price',
  'unit',
  'tuber_size',
  'unit_weight_kg',
  'price_per_kg',
  'quantity',
  'kg',
  'status',
  'next_harvest',
  'image_ids',
  'cultural',
  'health',
] as const;

export function farmerProductRoutes(app: ServiceApp, deps: FarmerProductDeps) {
  const { Product, projections, bus } = deps;
  const keys = postKeys(deps.PostKey);

  /**
   * Runs the farmer's writes of one product one at a time. The update of an edit or a delete is
   * conditional on the revision read, which MongoDB applies atomically; FerretDB 1.x does not (it
   * reads the matching document, then writes it back: two edits of the same revision both
   * "succeed" and one is lost — measured, ADR 0030). A short Redis lock per product makes the
   * read-check-write of the route itself serial; the next write waits for it (at most 5 s, then
   * 409) and finds the new revision. Stock changes from orders take the same lock (ADR 0033).
   */
  const withLock = <T>(productId: string, work: () => Promise<T>): Promise<T> =>
    withProductLock(deps.redis, productId, work, { busy: () => conflict('PRODUCT_CHANGED_ELSEWHERE', STALE_MESSAGE) });
  const errors = {
    400: Type.Ref('ErrorResponse'),
    401: Type.Ref('ErrorResponse'),
    403: Type.Ref('ErrorResponse'),
    404: Type.Ref('ErrorResponse'),
    409: Type.Ref('ErrorResponse'),
  };

  async function imagesOf(ids: string[]) {
    const deadline = Date.now() + (deps.imageWaitMs ?? 3_000);
    for (;;) {
      const images = await findByValues<ImageCopy>(projections.Image, 'image_id', ids, { removed: { $ne: true } });
      if (images.length === ids.length || Date.now() > deadline) return images;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  app.post(
    '/api/catalog/products',
    {
      onRequest: [
        app.requireRole('farmer'),
        app.limitPerUser({
          name: 'product-posts',
          max: PRODUCT_POST_LIMIT.max,
          timeWindow: PRODUCT_POST_LIMIT.windowSeconds * 1000,
          what: 'product posts',
        }),
      ],
      schema: {
        summary: 'Post a product',
        description:
          'With an Idempotency-Key header the post is safe to send again (ADR 0059): the same key from the same farmer within 24 hours ' +
          "answers the first post's 201 and product, and never makes a second one; with another body, 422 IDEMPOTENCY_KEY_REUSED. " +
          'Without the header every post makes a product, as before.',
        security: [{ bearer: [] }],
        headers: ProductPostHeaders,
        body: NewProduct,
        response: { 201: ProductResponse, ...errors, 422: ProductPostKeyReused },
      },
    },
    async (request, reply) => {
      const farmerId = request.identity.userId;
      const body = request.body;
      const key = postKeyOf(request.headers[IDEMPOTENCY_KEY_HEADER]);
      const fingerprint = key === undefined ? '' : postFingerprint(body);
      /** A repeat of a post answered before gets that answer again; the key with another body, a 422. */
      const settled = (verdict: Exclude<PostKeyVerdict, { kind: 'open' }>) => {
        if (verdict.kind === 'other-body') {
          return sendProblem(reply, 422, problem(IDEMPOTENCY_KEY_REUSED, KEY_REUSED_MESSAGE));
        }
        request.log.info({ farmerId, key }, 'product post repeated: answered as before');
        return reply.code(201).type('application/json; charset=utf-8').send(verdict.answer);
      };
      // Before the rules are judged again: they may no longer hold for a post that was made (its photos taken).
      const earlier = key === undefined ? undefined : await keys.look(farmerId, key, fingerprint);
      if (earlier && earlier.kind !== 'open') return settled(earlier);

      const farmer = await projections.Farmer.findOne({ farmer_id: farmerId }).lean();
      if (!farmer) throw conflict('FARMER_PROFILE_FIRST', 'Set up your farmer profile before posting products.');
      // The farmer's rating for the card (issue 26); a later change reaches the product by its event.
      const rating = await projections.FarmerRating.findOne({ farmer_id: farmerId }).lean();
      const images = await imagesOf(body.image_ids);
      const verdict = checkNewProduct(body, farmer, farmerId, images, lagosToday());
      if ('problem' in verdict) throw badRequest(verdict.problem);

      const byId = new Map(images.map((image) => [image.image_id, image]));
      const ordered = body.image_ids.map((id) => byId.get(id)!);
      let productId: string = randomUUID();
      if (key !== undefined) {
        // The key names the product: a try that finds it taken (in flight elsewhere, or left by a dead
        // replica) finishes that same product, so there is never a second one.
        const claim = await keys.claim(farmerId, key, fingerprint, productId);
        if (claim.kind !== 'open') return settled(claim);
        productId = claim.productId;
      }
      // Each photo serves one product: take them all (one atomic update per image), or none. Photos an
      // earlier try of the same keyed post took are this product's already.
      const release = async () => {
        if (await Product.exists({ product_id: productId })) return; // another try of this post saved it: its photos stay
        await projections.Image.updateMany({ image_id: { $in: body.image_ids }, product_id: productId }, { $set: { product_id: null } });
      };
      const taken = await projections.Image.updateMany(
        { image_id: { $in: body.image_ids }, farmer_id: farmerId, product_id: null, removed: { $ne: true } },
        { $set: { product_id: productId } },
      );
      if (
        taken.modifiedCount !== body.image_ids.length &&
        (await projections.Image.countDocuments({ image_id: { $in: body.image_ids }, product_id: productId })) !== body.image_ids.length
      ) {
        await release();
        throw conflict('IMAGES_IN_USE', IMAGES_IN_USE_MESSAGE);
      }
      let createdAt: Date;
      try {
        // Its number in the feed first, then the clock (ADR 0023: buckets follow posting order).
        const feedBucket = feedBucketOf(await nextFeedSeq(deps.connection));
        createdAt = clockNow();
        await Product.create({
          product_id: productId,
          farmer_id: farmerId,
          product_name: body.product_name.trim(),
          description: body.description.trim(),
          ...verdict.selling,
          tuber_type: body.tuber_type,
          images: ordered.map((i) => i.url),
          image_cards: ordered.map((i) => i.card_url),
          image_thumbs: ordered.map((i) => i.thumb_url),
          image_ids: body.image_ids,
          location: farmer.location,
          business_name: farmer.business_name,
          ...(rating ? { farmer_rating_count: rating.count, farmer_rating_stars_sum: rating.stars_sum } : {}),
          // The words buyers find it by (ADR 0029).
          ...searchTermsOf({
            product_name: body.product_name.trim(),
            description: body.description.trim(),
            tuber_type: body.tuber_type,
            business_name: farmer.business_name,
            location: farmer.location,
          }),
          cultural: body.cultural.trim(),
          ...(body.health?.trim() ? { health: body.health.trim() } : {}),
          ...(body.nutrition ? { nutrition: body.nutrition } : {}),
          created_at: createdAt,
          revision: 1,
          // ProductCreated carries what the orders service needs: no snapshot announcement (ADR 0033).
          announced: true,
          feed_bucket: feedBucket,
          outbox: [
            pendingEvent(
              ProductCreated,
              {
                product_id: productId,
                farmer_id: farmerId,
                image_ids: body.image_ids,
                created_at: createdAt.toISOString(),
                // What the orders service's projection keeps (issue 12).
                product_name: body.product_name.trim(),
                price_kobo: verdict.selling.price_kobo,
                unit: verdict.selling.unit,
                quantity: verdict.selling.quantity,
                status: verdict.selling.status,
                revision: 1,
                // What the price guide needs (issue 27).
                tuber_type: body.tuber_type,
                unit_weight_kg: verdict.selling.unit_weight_kg,
              },
              `product-created:${productId}`,
            ),
          ],
        });
      } catch (err) {
        // A duplicate product id: another try of this keyed post saved it first; that is the product.
        if (key === undefined || (err as { code?: number }).code !== 11000) {
          await release();
          throw err;
        }
      }
      // The product is saved; should the bus be down, the outbox relay announces it later.
      await publishRecorded(Product, { product_id: productId }, bus, request.log);
      request.log.info({ productId, farmerId, key }, 'product posted');
      const saved = await Product.findOne({ product_id: productId }).lean();
      // Only a keyed post finished late can find it deleted (the farmer removed it from the list meanwhile).
      if (!saved || saved.deleting) throw notFound('PRODUCT_NOT_FOUND', NOT_FOUND_MESSAGE);
      await deps.readModel.put(saved);
      reply.code(201);
      if (key === undefined) return toApiProduct(saved);
      // Every try of a keyed post answers the bytes kept with the key: one product, one answer.
      const answer = await keys.answer(farmerId, key, JSON.stringify(toApiProduct(saved)));
      return reply.type('application/json; charset=utf-8').send(answer);
    },
  );

  app.get(
    '/api/catalog/products/mine',
    {
      onRequest: app.requireRole('farmer'),
      schema: {
        summary: "The signed-in farmer's products, newest first",
        security: [{ bearer: [] }],
        response: { 200: Type.Object({ items: Type.Array(ProductResponse) }), ...errors },
      },
    },
    async (request, reply) => {
      // The read model leaves withheld listings out (issue 26): a farmer who has one is served from MongoDB,
      // where it is, with the moderator's reason.
      const withheld = await Product.exists({ farmer_id: request.identity.userId, withheld: true });
      const cached = withheld ? undefined : await deps.readModel.farmerProducts(request.identity.userId);
      if (cached) return reply.type('application/json; charset=utf-8').send(`{"items":[${cached.join(',')}]}`);
      const docs = await Product.find({ farmer_id: request.identity.userId, deleting: { $ne: true } })
        .sort({ created_at: -1 })
        .limit(500)
        .lean();
      return { items: docs.map(toApiProduct) };
    },
  );

  /** The photos an edit would add: known, this farmer's, and free (or already this product's). */
  async function checkAddedImages(farmerId: string, productId: string, added: string[]) {
    if (added.length === 0) return [];
    const images = await imagesOf(added);
    const byId = new Map(images.map((image) => [image.image_id, image]));
    for (const id of added) {
      const image = byId.get(id);
      if (!image || image.farmer_id !== farmerId) throw badRequest('OWN_PHOTOS_ONLY', OWN_PHOTOS_MESSAGE);
      // Unattached photos may have no product_id at all (the projection's upsert leaves it out).
      const owner = image.product_id ?? null;
      if (owner !== null && owner !== productId) throw conflict('IMAGES_IN_USE', IMAGES_IN_USE_MESSAGE);
    }
    return images;
  }

  /**
   * Takes the photos an edit adds, one atomic update per photo; answers the ids this call took, so
   * that a failure releases exactly those (a concurrent edit of the same product may hold others).
   */
  async function takeImages(farmerId: string, productId: string, added: string[]): Promise<string[]> {
    const taken: string[] = [];
    for (const id of added) {
      const took = await projections.Image.updateOne(
        { image_id: id, farmer_id: farmerId, product_id: null, removed: { $ne: true } },
        { $set: { product_id: productId } },
      );
      if (took.modifiedCount === 1) taken.push(id);
    }
    return taken;
  }
  const releaseImages = (productId: string, ids: string[]) =>
    ids.length === 0
      ? Promise.resolve()
      : projections.Image.updateMany({ image_id: { $in: ids }, product_id: productId }, { $set: { product_id: null } }).then(
          () => undefined,
        );

  app.patch(
    '/api/catalog/products/:productId',
    {
      onRequest: [
        app.requireRole('farmer'),
        app.limitPerUser({
          name: 'product-edits',
          max: PRODUCT_EDIT_LIMIT.max,
          timeWindow: PRODUCT_EDIT_LIMIT.windowSeconds * 1000,
          what: 'product changes',
        }),
      ],
      // Who may change it is settled before what the change says: another farmer's product is a 403
      // (a missing one 404) whatever the body, so nobody learns the rules of someone else's product.
      preValidation: async (request) => {
        const { productId } = request.params as { productId?: unknown };
        if (typeof productId !== 'string' || productId.length === 0 || productId.length > 64) return; // the schema answers
        const found = await Product.findOne({ product_id: productId, deleting: { $ne: true } }, { farmer_id: 1 }).lean();
        if (!found) throw notFound('PRODUCT_NOT_FOUND', NOT_FOUND_MESSAGE);
        if (found.farmer_id !== request.identity.userId) throw forbidden('NOT_YOUR_PRODUCT', NOT_YOURS_MESSAGE);
      },
      schema: {
        summary: 'Change one of my products',
        description:
          'Any of the fields of ProductChange; every rule of posting applies to the result. `image_ids` is the whole new ordered list (2 to 5). ' +
          'With `revision`, the change applies only to that revision (409 otherwise).',
        security: [{ bearer: [] }],
        params: Type.Object({ productId: Type.String({ minLength: 1, maxLength: 64 }) }),
        body: ProductChange,
        response: { 200: ProductResponse, ...errors },
      },
    },
    async (request) =>
      withLock(request.params.productId, async () => {
        const farmerId = request.identity.userId;
        const { productId } = request.params;
        const change = request.body;
        const current = await Product.findOne({ product_id: productId, deleting: { $ne: true } }).lean();
        if (!current) throw notFound('PRODUCT_NOT_FOUND', NOT_FOUND_MESSAGE);
        if (current.farmer_id !== farmerId) throw forbidden('NOT_YOUR_PRODUCT', NOT_YOURS_MESSAGE);
        const readRevision = current.revision ?? 1;
        if (change.revision !== undefined && change.revision !== readRevision) throw conflict('PRODUCT_CHANGED_ELSEWHERE', STALE_MESSAGE);

        // The rules of posting, on the product as this change would leave it.
        const before = toApiProduct(current);
        const selling = checkSelling(sellingAfterChange({ ...before, price_kobo: current.price_kobo }, change), {
          today: lagosToday(),
          checkDate: setsHarvestDate(change),
        });
        if ('problem' in selling) throw badRequest(selling.problem);

        const set: Record<string, unknown> = { ...selling };
        const unset: Record<string, ''> = {};
        if (selling.tuber_size === undefined) unset.tuber_size = '';
        if (selling.next_harvest === undefined) unset.next_harvest = '';
        for (const field of ['product_name', 'description', 'cultural'] as const) {
          if (change[field] !== undefined) set[field] = change[field].trim();
        }
        if (change.health !== undefined) {
          if (change.health.trim()) set.health = change.health.trim();
          else unset.health = '';
        }

        // Photos: the list sent is the whole new order; added ones are taken, removed ones let go.
        const oldIds = current.image_ids ?? [];
        let newIds = oldIds;
        let added: string[] = [];
        let removed: string[] = [];
        if (change.image_ids) {
          const count = checkImageCount(change.image_ids);
          if (count !== true) throw badRequest(count.problem);
          newIds = change.image_ids;
          added = newIds.filter((id) => !oldIds.includes(id));
          removed = oldIds.filter((id) => !newIds.includes(id));
          const fresh = new Map((await checkAddedImages(farmerId, productId, added)).map((image) => [image.image_id, image]));
          const urls = newIds.map((id) => {
            const at = oldIds.indexOf(id);
            if (at >= 0 && current.images[at] && current.image_cards[at] && current.image_thumbs[at]) {
              return { url: current.images[at], card: current.image_cards[at], thumb: current.image_thumbs[at] };
            }
            const image = fresh.get(id);
            return { url: image?.url ?? '', card: image?.card_url ?? '', thumb: image?.thumb_url ?? '' };
          });
          Object.assign(set, {
            image_ids: newIds,
            images: urls.map((u) => u.url),
            image_cards: urls.map((u) => u.card),
            image_thumbs: urls.map((u) => u.thumb),
          });
        }

        const after = toApiProduct({
          ...current,
          ...set,
          ...Object.fromEntries(Object.keys(unset).map((k) => [k, undefined])),
        } as ProductDocument);
        const changed = EDITABLE.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
        if (changed.length === 0) return before; // nothing to change: no new revision
        if (changed.includes('product_name') || changed.includes('description')) {
          // The words buyers find it by follow its name and description (ADR 0029).
          Object.assign(
            set,
            searchTermsOf({
              product_name: after.product_name,
              description: after.description,
              tuber_type: current.tuber_type,
              business_name: current.business_name,
              location: current.location,
            }),
          );
        }

        // The farmer set the stock or status: a later give from an order no longer reopens the product (ADR 0033).
        if (current.sold_out_by_order && (changed.includes('quantity') || changed.includes('status'))) unset.sold_out_by_order = '';

        const taken = await takeImages(farmerId, productId, added);
        if (taken.length !== added.length) {
          await releaseImages(productId, taken);
          throw conflict('IMAGES_IN_USE', IMAGES_IN_USE_MESSAGE);
        }
        const revision = readRevision + 1;
        const changedAt = clockNow();
        const payload: EventPayload<typeof ProductChanged> = {
          product_id: productId,
          farmer_id: farmerId,
          revision,
          changed,
          price_kobo: selling.price_kobo,
          unit: selling.unit,
          quantity: selling.quantity,
          status: selling.status,
          image_ids: newIds,
          removed_image_ids: removed,
          changed_at: changedAt.toISOString(),
          product_name: after.product_name,
          // The order stock changes this quantity already includes (ADR 0033).
          ...(current.stock_ops?.length ? { stock_ops: current.stock_ops } : {}),
          tuber_type: after.tuber_type,
          unit_weight_kg: selling.unit_weight_kg,
        };
        // The change and its event are one document update, conditional on the revision read.
        const mine = {
          product_id: productId,
          farmer_id: farmerId,
          deleting: { $ne: true },
          revision: current.revision === undefined || current.revision === null ? { $exists: false } : current.revision,
        };
        let written;
        try {
          written = await Product.updateOne(mine, {
            $set: { ...set, revision, updated_at: changedAt },
            ...(Object.keys(unset).length ? { $unset: unset } : {}),
            $push: { outbox: pendingEvent(ProductChanged, payload, `product-changed:${productId}:${revision}`) },
          });
        } catch (err) {
          await releaseImages(productId, taken);
          throw err;
        }
        if (written.modifiedCount === 0) {
          await releaseImages(productId, taken);
          const now = await Product.exists({ product_id: productId, deleting: { $ne: true } });
          throw now ? conflict('PRODUCT_CHANGED_ELSEWHERE', STALE_MESSAGE) : notFound('PRODUCT_NOT_FOUND', NOT_FOUND_MESSAGE);
        }
        // Photos taken off the product go (the media service removes their files): nobody may take them again.
        if (removed.length) {
          await projections.Image.updateMany({ image_id: { $in: removed }, product_id: productId }, { $set: { removed: true } });
        }
        await publishRecorded(Product, { product_id: productId }, bus, request.log);
        request.log.info({ productId, farmerId, revision, changed }, 'product changed');
        const saved = await Product.findOne({ product_id: productId }).lean();
        if (!saved || saved.deleting) throw notFound('PRODUCT_NOT_FOUND', NOT_FOUND_MESSAGE); // deleted right after the change
        await deps.readModel.put(saved);
        return toApiProduct(saved);
      }),
  );

  app.delete(
    '/api/catalog/products/:productId',
    {
      onRequest: app.requireRole('farmer'),
      schema: {
        summary: 'Delete one of my products',
        security: [{ bearer: [] }],
        params: Type.Object({ productId: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      const farmerId = request.identity.userId;
      const { productId } = request.params;
      // Someone else's product matches nothing and is answered exactly like a missing one.
      const mine = { product_id: productId, farmer_id: farmerId, deleting: { $ne: true } };
      // One atomic document update marks it and records its event with the photos it has: conditional
      // on the revision read, so an edit in between (new photos) is not missed; then read again.
      await withLock(productId, async () => {
        for (let attempt = 0; ; attempt++) {
          const product = await Product.findOne(mine, { image_ids: 1, revision: 1 }).lean();
          if (!product) throw notFound('PRODUCT_NOT_FOUND', NOT_FOUND_MESSAGE);
          const event = pendingEvent(
            ProductDeleted,
            { product_id: productId, farmer_id: farmerId, image_ids: product.image_ids, deleted_at: clockNow().toISOString() },
            `product-deleted:${productId}`,
          );
          const read = product.revision === undefined || product.revision === null ? { $exists: false } : product.revision;
          const marked = await Product.updateOne({ ...mine, revision: read }, { $set: { deleting: true }, $push: { outbox: event } });
          if (marked.modifiedCount === 1) break;
          if (attempt >= 4) throw conflict('PRODUCT_CHANGED_ELSEWHERE', STALE_MESSAGE);
        }
      });
      await deps.readModel.remove(productId, farmerId);
      // Hidden from now on; the record goes once its event is out (here, or by the outbox relay).
      if (await publishRecorded(Product, { product_id: productId }, bus, request.log)) {
        await Product.deleteOne({ product_id: productId, deleting: true, 'outbox.0': { $exists: false } });
      }
      request.log.info({ productId, farmerId }, 'product deleted');
      return reply.code(204).send(null);
    },
  );
}
