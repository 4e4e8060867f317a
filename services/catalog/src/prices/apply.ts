// Which events the price guide follows, and what each does to its read model (docs/adr/0072). One function for the
// live consumers and for a rebuild from the stream, so both reach the same figures.
import {
  AccountModerated,
  FarmerProfileChanged,
  ListingModerated,
  OrderAccepted,
  OrderCancelled,
  ProductChanged,
  ProductCreated,
  ProductDeleted,
  type EventContract,
  type EventPayload,
} from '@tuber/contracts';
import type { LegacyProduct, PriceStore } from './model.js';

/** The events, each with the durable consumer that follows it live and the one a rebuild reads it with. */
export const PRICE_EVENTS = [
  { event: ProductCreated, durable: 'catalog-prices-product-created', replay: 'catalog-prices-replay-product-created' },
  { event: ProductChanged, durable: 'catalog-prices-product-changed', replay: 'catalog-prices-replay-product-changed' },
  { event: ProductDeleted, durable: 'catalog-prices-product-deleted', replay: 'catalog-prices-replay-product-deleted' },
  { event: ListingModerated, durable: 'catalog-prices-listing-moderated', replay: 'catalog-prices-replay-listing-moderated' },
  { event: FarmerProfileChanged, durable: 'catalog-prices-farmers', replay: 'catalog-prices-replay-farmers' },
  { event: OrderAccepted, durable: 'catalog-prices-order-accepted', replay: 'catalog-prices-replay-order-accepted' },
  { event: OrderCancelled, durable: 'catalog-prices-order-cancelled', replay: 'catalog-prices-replay-order-cancelled' },
  { event: AccountModerated, durable: 'catalog-prices-account-moderated', replay: 'catalog-prices-replay-account-moderated' },
] as const satisfies readonly { event: EventContract; durable: string; replay: string }[];

/** Applies one event; answers the tubers whose figures it changed. */
export async function applyPriceEvent(store: PriceStore, subject: string, payload: unknown, legacy: LegacyProduct): Promise<string[]> {
  switch (subject) {
    case ProductCreated.subject: {
      const e = payload as EventPayload<typeof ProductCreated>;
      return store.listingState({ ...e, at: e.created_at });
    }
    case ProductChanged.subject: {
      const e = payload as EventPayload<typeof ProductChanged>;
      return store.listingState({ ...e, at: e.changed_at });
    }
    case ProductDeleted.subject: {
      const e = payload as EventPayload<typeof ProductDeleted>;
      return store.listingMark(e.product_id, 'deleted', e.deleted_at);
    }
    case ListingModerated.subject: {
      const e = payload as EventPayload<typeof ListingModerated>;
      return store.listingMark(e.product_id, e.hidden ? 'hidden' : 'shown', e.at, e.revision);
    }
    case FarmerProfileChanged.subject: {
      const e = payload as EventPayload<typeof FarmerProfileChanged>;
      return store.place(e);
    }
    case OrderAccepted.subject:
      return store.accepted(payload as EventPayload<typeof OrderAccepted>, legacy);
    case OrderCancelled.subject:
      return store.cancelled(payload as EventPayload<typeof OrderCancelled>);
    case AccountModerated.subject:
      return store.standing(payload as EventPayload<typeof AccountModerated>);
    default:
      return [];
  }
}
