// The orders service as the buyer pages use it (contracts/src/orders.ts; issue 12). Types only from the
// contracts package, as elsewhere in this remote: its orders module builds TypeBox schemas when loaded, which
// the bundle does not need (the phone helpers are the only contracts code the bundle takes, see webpack.config.ts).
import type {
  ORDER_LIMITS as ContractLimits,
  ActivityKind,
  Fulfilment,
  NewOrderRequest,
  OrderHistoryEntry,
  OrderLine,
  OrderLineInput,
  OrderLineProblem,
  OrderRequest,
  OrderStatus,
  UnreadCount,
} from '@tuber/contracts';

export type {
  ActivityKind,
  Fulfilment,
  NewOrderRequest,
  OrderHistoryEntry,
  OrderLine,
  OrderLineInput,
  OrderLineProblem,
  OrderRequest,
  OrderStatus,
  UnreadCount,
};

/**
 * A refused send (409) as this page reads it: version 1's three fields and the lines; the code when the
 * orders service gives one (ORDER_REFUSED, REQUEST_ID_TAKEN; docs/adr/0064). Looser than the contract's
 * OrderRefused on purpose, so an orders service of either version can answer.
 */
export interface OrderRefused {
  statusCode: number;
  error: string;
  message: string;
  code?: string;
  problems: OrderLineProblem[];
}

/** The contract's limits; `satisfies` keeps them equal to contracts' ORDER_LIMITS (a change there fails the type check). */
export const ORDER_LIMITS = {
  maxLines: 20,
  noteMaxLength: 500,
  reasonMaxLength: 300,
  addressMaxLength: 300,
} as const satisfies typeof ContractLimits;

export interface OrderRequestPage {
  items: OrderRequest[];
  next_cursor: string | null;
}

/** Paths under the API client's /api. */
export const REQUESTS_PATH = '/orders/requests';
export const ACTIVITY_PATH = '/orders/activity';
export const REQUESTS_PAGE_SIZE = 10;
export const requestsPagePath = (cursor: string | null, limit = REQUESTS_PAGE_SIZE) =>
  `${REQUESTS_PATH}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
export const requestPath = (requestId: string) => `${REQUESTS_PATH}/${encodeURIComponent(requestId)}`;
export const requestReadPath = (requestId: string) => `${requestPath(requestId)}/read`;
export const requestCancelPath = (requestId: string) => `${requestPath(requestId)}/cancel`;

export const REQUESTS_ROUTE = '/dashboard/requests';
export const CART_ROUTE = '/dashboard/cart';
