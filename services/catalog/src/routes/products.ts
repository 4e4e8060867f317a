import { Type } from '@sinclair/typebox';
import { Page, Product } from '@tuber/contracts';
import { badRequest, notFound, type ServiceApp } from '@tuber/kit';
import { decodeCursor, encodeCursor } from '../domain/cursor.js';
import { readFeedPage } from '../domain/feed.js';
import { toApiProduct, type ProductModel } from '../domain/product.js';
import type { ReadModel } from '../domain/read-model.js';
import type { Connection } from 'mongoose';

const JSON_TYPE = 'application/json; charset=utf-8';
const NOT_FOUND = 'This product does not exist or has been removed.';

export function productRoutes(
  app: ServiceApp,
  deps: { Product: ProductModel; connection: Connection; readModel: ReadModel; pageMax: number },
) {
  app.get(
    '/api/catalog/products',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'The product feed, newest first, one page at a time',
        security: [{ bearer: [] }],
        querystring: Type.Object({
          // Optional with a default: the document must not call it required when the code fills it in.
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: deps.pageMax, default: Math.min(12, deps.pageMax) })),
          cursor: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: { 200: Page(Product), 400: Type.Ref('ErrorResponse') },
      },
    },
    async (request, reply) => {
      const { limit = Math.min(12, deps.pageMax), cursor } = request.query;
      const position = cursor === undefined ? undefined : decodeCursor(cursor);
      if (cursor !== undefined && !position) throw badRequest('The page cursor is not valid. Reload the feed to start again.');
      // Redis first: the products' JSON as stored, joined into the page without parsing them.
      const cached = await deps.readModel.feedPage(limit, position);
      if (cached) {
        const next = cached.more && cached.last ? JSON.stringify(encodeCursor(cached.last)) : 'null';
        return reply.type(JSON_TYPE).send(`{"items":[${cached.items.join(',')}],"next_cursor":${next}}`);
      }
      const { items, more } = await readFeedPage(deps, limit, position);
      const last = items.at(-1);
      return {
        items: items.map(toApiProduct),
        next_cursor:
          more && last ? encodeCursor({ createdAt: last.created_at, productId: last.product_id, bucket: last.feed_bucket }) : null,
      };
    },
  );

  app.get(
    '/api/catalog/products/:productId',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'One product',
        security: [{ bearer: [] }],
        params: Type.Object({ productId: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: Product, 400: Type.Ref('ErrorResponse'), 404: Type.Ref('ErrorResponse') },
      },
    },
    async (request, reply) => {
      const cached = await deps.readModel.product(request.params.productId);
      if (cached === null) throw notFound(NOT_FOUND);
      if (cached !== undefined) return reply.type(JSON_TYPE).send(cached);
      const doc = await deps.Product.findOne({ product_id: request.params.productId, deleting: { $ne: true } }).lean();
      if (!doc) throw notFound(NOT_FOUND);
      return toApiProduct(doc);
    },
  );
}
