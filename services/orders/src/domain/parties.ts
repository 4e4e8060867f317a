// Who a request is between: its buyer and its farmer see it and act on it; anyone else is answered as if it
// did not exist (404), so its existence is not revealed. One lookup for every route that names a request.
import { notFound, type Identity } from '@tuber/kit';
import type { OrderModels, RequestDoc } from './models.js';
import type { Party } from './state-machine.js';

export async function findForParty(
  Request: OrderModels['Request'],
  requestId: string,
  identity: Identity,
): Promise<{ doc: RequestDoc; party: Party }> {
  const doc = await Request.findOne({ request_id: requestId }).lean<RequestDoc>();
  const me = identity.userId;
  if (doc && doc.buyer_id === me) return { doc, party: 'buyer' };
  if (doc && doc.farmer_id === me) return { doc, party: 'farmer' };
  throw notFound('REQUEST_NOT_FOUND', 'There is no order request with this id among yours. Open it from your requests or inbox.');
}
