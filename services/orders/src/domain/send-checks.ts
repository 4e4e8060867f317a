// What a request is checked against when the buyer sends it (issue 12): each line against the
// orders service's copy of the product. Pure; the route gathers the products and what accepted
// requests hold back, and answers 409 OrderRefused with these problems and one message.
import type { OrderLineInput, OrderLineProblem, SellingUnit } from '@tuber/contracts';
import { formatKobo, formatQuantity, perUnit, toKobo, toNaira } from './words.js';

export interface ProductView {
  product_id: string;
  farmer_id: string;
  product_name: string;
  price_kobo: number;
  unit: string;
  quantity: number;
  status: string;
  deleted?: boolean | null;
  hidden?: boolean | null;
}

/**
 * What can still be promised: the stock the catalog last published minus what accepted requests
 * hold that the catalog has not taken off yet (a conservative figure: a take already applied but
 * not yet seen here counts twice for a moment, never zero times).
 */
export function availableQuantity(product: Pick<ProductView, 'quantity'>, held: number): number {
  return Math.max(0, Math.round((product.quantity - held) * 100) / 100);
}

/** Only products for sale now have a stock to check; a next-harvest product may be asked for ahead. */
export const stockCounts = (product: Pick<ProductView, 'status'>) => product.status === 'available';

/** One problem per line that cannot be sent as it is (empty: all can). */
export function checkLines(
  lines: readonly OrderLineInput[],
  products: ReadonlyMap<string, ProductView>,
  held: ReadonlyMap<string, number>,
): OrderLineProblem[] {
  const problems: OrderLineProblem[] = [];
  for (const line of lines) {
    const product = products.get(line.product_id);
    if (!product || product.deleted || product.hidden) {
      problems.push({ product_id: line.product_id, problem: 'unavailable' });
      continue;
    }
    const unit = product.unit as SellingUnit;
    if (product.status === 'sold_out') {
      problems.push({ product_id: line.product_id, problem: 'sold_out', unit });
    } else if (product.unit !== line.unit) {
      problems.push({ product_id: line.product_id, problem: 'unit_changed', unit, price: toNaira(product.price_kobo) });
    } else if (toKobo(line.price) !== product.price_kobo) {
      problems.push({ product_id: line.product_id, problem: 'price_changed', price: toNaira(product.price_kobo), unit });
    } else if (stockCounts(product)) {
      const available = availableQuantity(product, held.get(line.product_id) ?? 0);
      if (line.quantity > available) problems.push({ product_id: line.product_id, problem: 'above_stock', available, unit });
    }
  }
  return problems;
}

/** One sentence per problem, each saying what to do. */
export function refusalMessage(problems: readonly OrderLineProblem[], products: ReadonlyMap<string, ProductView>): string {
  return problems
    .map((p) => {
      const product = products.get(p.product_id);
      const name = product?.product_name || 'A product in your request';
      switch (p.problem) {
        case 'unavailable':
          return `${product?.product_name || 'A product in your request'} is no longer for sale; remove it from your cart and send again.`;
        case 'sold_out':
          return `${name} is sold out; remove it from your cart and send again.`;
        case 'unit_changed':
          return `${name} is now sold ${perUnit(p.unit ?? '')} at ${formatKobo(product?.price_kobo ?? 0)}; add it to your cart again and send again.`;
        case 'price_changed':
          return `The price of ${name} changed to ${formatKobo(toKobo(p.price ?? 0))} ${perUnit(p.unit ?? '')}; confirm the new price and send again.`;
        case 'above_stock':
          return p.available
            ? `Only ${formatQuantity(p.available, p.unit ?? '')} of ${name} left; lower the quantity and send again.`
            : `${name} has no stock left that is not already promised; remove it from your cart and send again.`;
      }
    })
    .join(' ');
}
