// A farmer's blocked buyers (issue 24): a farmer blocks a buyer who sent them a request, sees whom they
// blocked, and unblocks. The farmer is always the token's subject, so nobody blocks on another farmer's
// behalf; only an account that sent this farmer a request can be blocked, which makes it a buyer (only
// buyers send) and keeps the route from probing other accounts. The send route refuses a blocked
// buyer's next request (403 BUYER_BLOCKED); requests sent before stay as they are.
import { Type } from '@sinclair/typebox';
import { BlockedBuyer, BlockedBuyers } from '@tuber/contracts';
import { notFound, type ServiceApp } from '@tuber/kit';
import { blockId, type BlockedBuyerDoc, type OrderModels, type RequestDoc } from '../domain/models.js';
import { bodyOrEmpty, EmptyBody } from './empty-body.js';

export interface BlockedBuyerRoutesDeps {
  models: OrderModels;
}

/** Blocks and unblocks a farmer may make in a window: plenty for a person, little for a script. */
export const BLOCK_CHANGE_LIMIT = { max: 60, windowSeconds: 600 } as const;

const err = Type.Ref('ErrorResponse');
const BuyerParams = Type.Object({ buyerId: Type.String({ minLength: 1, maxLength: 64 }) });


const isDuplicateKey = (e: unknown) => (e as { code?: number })?.code === 11000;

export const presentBlock = (doc: Pick<BlockedBuyerDoc, 'buyer_id' | 'buyer_name' | 'blocked_at'>): BlockedBuyer => ({
  buyer_id: doc.buyer_id,
  buyer_name: doc.buyer_name,
  blocked_at: new Date(doc.blocked_at).toISOString(),
});

export function blockedBuyerRoutes(app: ServiceApp, deps: BlockedBuyerRoutesDeps) {
  const { Request, BlockedBuyer: Block } = deps.models;
  const limitChanges = app.limitPerUser({
    name: 'blocked-buyers',
    max: BLOCK_CHANGE_LIMIT.max,
    timeWindow: BLOCK_CHANGE_LIMIT.windowSeconds * 1000,
    what: 'block changes',
  });

  app.get(
    '/api/orders/blocked-buyers',
    {
      onRequest: app.requireRole('farmer'),
      schema: {
        summary: 'The buyers the calling farmer blocked, newest first (farmer)',
        security: [{ bearer: [] }],
        response: { 200: BlockedBuyers, 401: err, 403: err },
      },
    },
    async (request) => {
      const blocks = await Block.find({ farmer_id: request.identity.userId }).sort({ blocked_at: -1 }).lean<BlockedBuyerDoc[]>();
      return { items: blocks.map(presentBlock) };
    },
  );

  app.put(
    '/api/orders/blocked-buyers/:buyerId',
    {
      onRequest: [app.requireRole('farmer'), limitChanges],
      preValidation: bodyOrEmpty,
      schema: {
        summary: 'Block a buyer who sent you a request (farmer)',
        description:
          "The buyer's next order request to you is refused with 403 and code BUYER_BLOCKED; requests already sent stay as they are. " +
          'Only a buyer who sent you a request can be blocked (404 otherwise). Blocking again answers the block that stands (200).',
        security: [{ bearer: [] }],
        params: BuyerParams,
        body: EmptyBody,
        response: { 200: BlockedBuyer, 201: BlockedBuyer, 400: err, 401: err, 403: err, 404: err, 429: err },
      },
    },
    async (request, reply) => {
      const farmerId = request.identity.userId;
      const { buyerId } = request.params;
      const id = blockId(farmerId, buyerId);
      const standing = await Block.findById(id).lean<BlockedBuyerDoc>();
      if (standing) return reply.code(200).send(presentBlock(standing));
      // Their latest request to this farmer names them as the farmer knows them.
      const latest = await Request.findOne({ farmer_id: farmerId, buyer_id: buyerId }, { buyer_name: 1 })
        .sort({ created_at: -1 })
        .lean<Pick<RequestDoc, 'buyer_name'>>();
      if (!latest)
        throw notFound('BUYER_NOT_KNOWN', 'No buyer with this id has sent you an order request. Block a buyer from one of their requests in your inbox.');
      const block = { _id: id, farmer_id: farmerId, buyer_id: buyerId, buyer_name: latest.buyer_name, blocked_at: new Date() };
      try {
        await Block.create(block);
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
        // Blocked twice at once: the first block stands.
        const first = await Block.findById(id).lean<BlockedBuyerDoc>();
        return reply.code(200).send(presentBlock(first ?? block));
      }
      request.log.info({ farmerId, buyerId }, 'buyer blocked');
      return reply.code(201).send(presentBlock(block));
    },
  );

  app.delete(
    '/api/orders/blocked-buyers/:buyerId',
    {
      onRequest: [app.requireRole('farmer'), limitChanges],
      schema: {
        summary: 'Unblock a buyer (farmer)',
        description: 'The buyer can send you requests again. Answers 204 also when the buyer was not blocked (nothing to undo).',
        security: [{ bearer: [] }],
        params: BuyerParams,
        response: { 204: Type.Null(), 400: err, 401: err, 403: err, 429: err },
      },
    },
    async (request, reply) => {
      const farmerId = request.identity.userId;
      const { buyerId } = request.params;
      const removed = await Block.deleteOne({ _id: blockId(farmerId, buyerId) });
      if (removed.deletedCount) request.log.info({ farmerId, buyerId }, 'buyer unblocked');
      return reply.code(204).send(null);
    },
  );
}
