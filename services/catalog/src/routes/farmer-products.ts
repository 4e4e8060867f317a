// A farmer's own products: post, list, delete. farmer_id always comes from the token.
import { Type } from '@sinclair/typebox';
import { NewProduct, Product as ProductResponse, ProductCreated, ProductDeleted } from '@tuber/contracts';
import { badRequest, conflict, notFound, pendingEvent, publishRecorded, type EventBus, type ServiceApp } from '@tuber/kit';
import { randomUUID } from 'node:crypto';
import { checkNewProduct, IMAGES_IN_USE_MESSAGE } from '../domain/new-product.js';
import { feedBucketOf, nextFeedSeq, toApiProduct, type ProductModel } from '../domain/product.js';
import type { Projections } from '../domain/projections.js';
import type { ReadModel } from '../domain/read-model.js';
import type { Connection } from 'mongoose';

export interface FarmerProductDeps {
  Product: ProductModel;
  connection: Connection;
  readModel: ReadModel;
  projections: Projections;
  bus: EventBus;
  /** How long to wait for a just-uploaded image's event to reach the catalog. */
  imageWaitMs?: number;
}

/**
 * Product posts per farmer (by token subject) in a window: far above what a person posting by
 * hand reaches (each product needs 2-5 fresh photos), low enough that no account can flood the
 * feed or the database. Invalid posts count too.
 */
export const PRODUCT_POST_LIMIT = { max: 60, windowSeconds: 600 };

export function farmerProductRoutes(app: ServiceApp, deps: FarmerProductDeps) {
  const { Product, projections, bus } = deps;
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
      const images = await projections.Image.find({ image_id: { $in: ids }, removed: { $ne: true } }).lean();
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
      schema: { summary: 'Post a product', security: [{ bearer: [] }], body: NewProduct, response: { 201: ProductResponse, ...errors } },
    },
    async (request, reply) => {
      const farmerId = request.identity.userId;
      const body = request.body;
      const farmer = await projections.Farmer.findOne({ farmer_id: farmerId }).lean();
      if (!farmer) throw conflict('Set up your farmer profile before posting products.');
      const images = await imagesOf(body.image_ids);
      const verdict = checkNewProduct(body, farmer, farmerId, images);
      if ('problem' in verdict) throw badRequest(verdict.problem);

      const byId = new Map(images.map((image) => [image.image_id, image]));
      const ordered = body.image_ids.map((id) => byId.get(id)!);
      const productId = randomUUID();
      // Each photo serves one product: take them all (one atomic update per image), or none.
      const release = () =>
        projections.Image.updateMany({ image_id: { $in: body.image_ids }, product_id: productId }, { $set: { product_id: null } });
      const taken = await projections.Image.updateMany(
        { image_id: { $in: body.image_ids }, farmer_id: farmerId, product_id: null, removed: { $ne: true } },
        { $set: { product_id: productId } },
      );
      if (taken.modifiedCount !== body.image_ids.length) {
        await release();
        throw conflict(IMAGES_IN_USE_MESSAGE);
      }
      let createdAt: Date;
      try {
        // Its number in the feed first, then the clock (ADR 0023: buckets follow posting order).
        const feedBucket = feedBucketOf(await nextFeedSeq(deps.connection));
        createdAt = new Date();
        await Product.create({
          product_id: productId,
          farmer_id: farmerId,
          product_name: body.product_name.trim(),
          description: body.description.trim(),
          price_kobo: verdict.priceKobo,
          kg: body.kg,
          tuber_type: body.tuber_type,
          images: ordered.map((i) => i.url),
          image_cards: ordered.map((i) => i.card_url),
          image_thumbs: ordered.map((i) => i.thumb_url),
          image_ids: body.image_ids,
          location: farmer.location,
          business_name: farmer.business_name,
          cultural: body.cultural.trim(),
          ...(body.health?.trim() ? { health: body.health.trim() } : {}),
          ...(body.nutrition ? { nutrition: body.nutrition } : {}),
          created_at: createdAt,
          feed_bucket: feedBucket,
          outbox: [
            pendingEvent(
              ProductCreated,
              { product_id: productId, farmer_id: farmerId, image_ids: body.image_ids, created_at: createdAt.toISOString() },
              `product-created:${productId}`,
            ),
          ],
        });
      } catch (err) {
        await release();
        throw err;
      }
      // The product is saved; should the bus be down, the outbox relay announces it later.
      await publishRecorded(Product, { product_id: productId }, bus, request.log);
      request.log.info({ productId, farmerId }, 'product posted');
      const saved = await Product.findOne({ product_id: productId }).lean();
      await deps.readModel.put(saved!);
      return reply.code(201).send(toApiProduct(saved!));
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
      const cached = await deps.readModel.farmerProducts(request.identity.userId);
      if (cached) return reply.type('application/json; charset=utf-8').send(`{"items":[${cached.join(',')}]}`);
      const docs = await Product.find({ farmer_id: request.identity.userId, deleting: { $ne: true } })
        .sort({ created_at: -1 })
        .limit(500)
        .lean();
      return { items: docs.map(toApiProduct) };
    },
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
      const product = await Product.findOne(mine, { image_ids: 1 }).lean();
      if (!product) throw notFound('This product does not exist or has been removed.');
      // One atomic document update marks it and records its event (image ids never change).
      const event = pendingEvent(
        ProductDeleted,
        { product_id: productId, farmer_id: farmerId, image_ids: product.image_ids, deleted_at: new Date().toISOString() },
        `product-deleted:${productId}`,
      );
      const marked = await Product.updateOne(mine, { $set: { deleting: true }, $push: { outbox: event } });
      if (marked.modifiedCount === 0) throw notFound('This product does not exist or has been removed.');
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
