// What a buyer does that the farmer's insights count (issue 12): product views, contact clicks, cart adds.
// Fire and forget: a beacon never waits, never blocks the page and never shows an error.
import type { ApiClient } from '@tuber/shell-contract';
import { ACTIVITY_PATH, type ActivityKind } from './types.js';

export function sendActivity(api: ApiClient, productId: string, kind: ActivityKind): void {
  try {
    // keepalive: a click on a tel: or wa.me link may leave the page before the answer comes.
    api.post(ACTIVITY_PATH, { product_id: productId, kind }, { keepalive: true }).catch(() => undefined);
  } catch {
    // never let counting break what the buyer is doing
  }
}
