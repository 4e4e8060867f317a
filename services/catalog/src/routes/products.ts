import { Type } from '@sinclair/typebox';
import { FeedPage, FeedQuery, Page, Product } from '@tuber/contracts';
import { badRequest, notFound, type ServiceApp } from '@tuber/kit';
import { decodeCursor, encodeCursor } from '../domain/cursor.js';
import { readFeedPage } from '../domain/feed.js';
import {
  decodeSearchCursor,
  encodeSearchCursor,
  isEmptyPlan,
  isPlainFeed,
  planSearch,
  readSearchPage,
  scoreOf,
  type SearchPlan,
} from '../domain/search.js';
import { alternativesOf, type TypoDictionary } from '../domain/typos.js';
import { toApiProduct, type ProductModel } from '../domain/product.js';
import type { ReadModel } from '../domain/read-model.js';
import type { Connection } from 'mongoose';

const JSON_TYPE = 'application/json; charset=utf-8';
const NOT_FOUND = 'This product does not exist or has been removed.';
const BAD_CURSOR = 'The page cursor is not valid. Reload the feed to start again.';

interface ReadAs {
  searched_as?: string;
  did_you_mean?: string;
}

/**
 * The feed page's `searched_as` (the words read as their alternatives replaced by the first of them) and,
 * on an empty first page, `did_you_mean` (each word that matches nothing replaced by the nearest word within
 * 2 edits).
 */
function readAs(plan: SearchPlan, corrected: number[], empty: boolean, dictionary: TypoDictionary | undefined): ReadAs {
  const extra: ReadAs = {};
  if (corrected.length && !empty) {
    const words = plan.words.map((word, i) => {
      const alt = plan.alternatives?.[i];
      return corrected.includes(i) && alt ? (alt.words[0] ?? alt.tubers[0] ?? word) : word;
    });
    extra.searched_as = words.join(' ');
  }
  if (empty && dictionary) {
    let changed = false;
    const words = plan.words.map((word) => {
      if (dictionary.matches(word)) return word;
      const near = dictionary.near(word, 1, Math.max(1, Math.min(2, word.length - 2)));
      if (near[0]) changed = true;
      return near[0] ?? word;
    });
    if (changed) extra.did_you_mean = words.join(' ');
  }
  return extra;
}

export function productRoutes(
  app: ServiceApp,
  deps: { Product: ProductModel; connection: Connection; readModel: ReadModel; pageMax: number },
) {
  app.get(
    '/api/catalog/products',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'The product feed, one page at a time: newest first, or searched, filtered and sorted (sold-out products last)',
        security: [{ bearer: [] }],
        querystring: Type.Object({
          ...FeedQuery.properties,
          // Optional with a default: the document must not call it required when the code fills it in.
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: deps.pageMax, default: Math.min(12, deps.pageMax) })),
          cursor: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: { 200: FeedPage(Product), 400: Type.Ref('ErrorResponse') },
      },
    },
    async (request, reply) => {
      const { limit = Math.min(12, deps.pageMax), cursor, ...query } = request.query;
      const plan = planSearch(query);
      if (!isPlainFeed(plan)) {
        // Searched, filtered or sorted (ADR 0029): the read model's search sets, or the database.
        const at = cursor === undefined ? undefined : decodeSearchCursor(plan, cursor);
        if (cursor !== undefined && !at) throw badRequest('PAGE_LINK_INVALID', BAD_CURSOR);
        if (isEmptyPlan(plan)) return { items: [], next_cursor: null };
        // Words that match no product's word are read as the words near them, or the tuber they name (issue 25).
        const dictionary = plan.words.length ? await deps.readModel.typoDictionary() : undefined;
        if (plan.words.length) plan.alternatives = alternativesOf(plan.words, dictionary);
        const found = await deps.readModel.searchPage(plan, limit, at);
        if (found) {
          const next = found.more && found.last ? JSON.stringify(encodeSearchCursor(plan, found.last)) : 'null';
          const extra = readAs(plan, found.corrected, found.items.length === 0 && !at, dictionary);
          const members = Object.keys(extra).length ? `,${JSON.stringify(extra).slice(1, -1)}` : '';
          return reply.type(JSON_TYPE).send(`{"items":[${found.items.join(',')}],"next_cursor":${next}${members}}`);
        }
        const { items, more } = await readSearchPage(deps.Product, plan, limit, at);
        const last = items.at(-1);
        const corrected = (plan.alternatives ?? []).flatMap((alt, i) => (alt ? [i] : []));
        const extra = readAs(plan, corrected, items.length === 0 && !at, dictionary);
        return {
          items: items.map(toApiProduct),
          next_cursor: more && last ? encodeSearchCursor(plan, { score: scoreOf(last, plan.sort), productId: last.product_id }) : null,
          ...extra,
        };
      }
      const position = cursor === undefined ? undefined : decodeCursor(cursor);
      if (cursor !== undefined && !position) throw badRequest('PAGE_LINK_INVALID', BAD_CURSOR);
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
          more && last
            ? encodeCursor({
                createdAt: last.created_at,
                productId: last.product_id,
                bucket: last.feed_bucket,
                soldOut: last.status === 'sold_out',
              })
            : null,
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
      if (cached === null) throw notFound('PRODUCT_NOT_FOUND', NOT_FOUND);
      if (cached !== undefined) return reply.type(JSON_TYPE).send(cached);
      const doc = await deps.Product.findOne({ product_id: request.params.productId, deleting: { $ne: true }, withheld: { $ne: true } }).lean();
      if (!doc) throw notFound('PRODUCT_NOT_FOUND', NOT_FOUND);
      return toApiProduct(doc);
    },
  );

  // The farmer page (issue 26): one farmer's products, the ones a buyer can have first, then newest first.
  // A farmer lists at most a few hundred products, so the page is cut from one equality read by farmer.
  app.get(
    '/api/catalog/farmers/:farmerId/products',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "One farmer's products for their farmer page: available first, then newest first",
        security: [{ bearer: [] }],
        params: Type.Object({ farmerId: Type.String({ minLength: 1, maxLength: 64 }) }),
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 12 })),
          cursor: Type.Optional(Type.String({ maxLength: 20, pattern: '^[0-9]+$', description: 'the offset the last page ended at' })),
        }),
        response: { 200: Page(Product), 400: Type.Ref('ErrorResponse'), 401: Type.Ref('ErrorResponse') },
      },
    },
    async (request) => {
      const { limit = 12, cursor } = request.query;
      const offset = cursor === undefined ? 0 : Number(cursor);
      if (!Number.isSafeInteger(offset) || offset > 10_000) throw badRequest('PAGE_LINK_INVALID', BAD_CURSOR);
      const docs = await deps.Product.find({ farmer_id: request.params.farmerId }).lean();
      const listed = docs
        .filter((doc) => doc.deleting !== true && doc.withheld !== true)
        .sort(
          (a, b) =>
            Number(a.status === 'sold_out') - Number(b.status === 'sold_out') ||
            b.created_at.getTime() - a.created_at.getTime() ||
            (a.product_id < b.product_id ? 1 : -1),
        );
      const page = listed.slice(offset, offset + limit);
      return { items: page.map(toApiProduct), next_cursor: offset + limit < listed.length ? String(offset + limit) : null };
    },
  );
}
