// A refused request (409 OrderRefused, issue 12) shown where it matters: each problem on its cart line,
// with the one thing the buyer can do about it. Pure; the cart page renders these.
import { unitOf } from '@tuber/ui';
import { tr, type T } from '../i18n/t.js';
import { nairaText, priceWords, quantityWords, unitText } from '../i18n/words.js';
import type { CartItem } from '../cart/cart.js';
import type { SellingUnit } from '../catalog/types.js';
import type { OrderLineProblem, OrderRefused } from './types.js';

export type LineFix =
  | { kind: 'use-price'; label: string; price: number; unit: SellingUnit }
  | { kind: 'set-quantity'; label: string; quantity: number }
  | { kind: 'remove'; label: string };

export interface LineProblemView {
  problem: OrderLineProblem['problem'];
  text: string;
  fix: LineFix;
}

export function problemView(problem: OrderLineProblem, item: Pick<CartItem, 'unit' | 'quantity'>, t: T = tr): LineProblemView {
  const remove: LineFix = { kind: 'remove', label: t('common.remove') };
  const unit = problem.unit ?? item.unit;
  switch (problem.problem) {
    case 'price_changed':
      if (typeof problem.price === 'number') {
        return {
          problem: problem.problem,
          text: t('problem.price-changed', { price: nairaText(problem.price), unit: unitText(unit, t) }),
          fix: { kind: 'use-price', label: t('problem.use-price'), price: problem.price, unit },
        };
      }
      return { problem: problem.problem, text: t('problem.price-changed-unknown'), fix: remove };
    case 'unit_changed':
      if (typeof problem.price === 'number') {
        return {
          problem: problem.problem,
          text: t('problem.unit-changed', { unit: unitText(unit, t), price: priceWords(problem.price, unit, t) }),
          fix: { kind: 'use-price', label: t('problem.use-price'), price: problem.price, unit },
        };
      }
      return { problem: problem.problem, text: t('problem.unit-changed-unknown', { unit: unitText(unit, t) }), fix: remove };
    case 'sold_out':
      return { problem: problem.problem, text: t('stock.sold-out'), fix: remove };
    case 'above_stock': {
      const available = typeof problem.available === 'number' ? problem.available : 0;
      // Cart quantities are whole units: offer the most that can still be had.
      const most = Math.floor(available);
      if (most < 1)
        return {
          problem: problem.problem,
          text: available > 0 ? t('problem.only-left', { quantity: quantityWords(available, unit, t) }) : t('stock.sold-out'),
          fix: remove,
        };
      return {
        problem: problem.problem,
        text: t('problem.only-left', { quantity: quantityWords(available, unit, t) }),
        fix: most === item.quantity ? remove : { kind: 'set-quantity', label: t('problem.change-to', { count: most }), quantity: most },
      };
    }
    case 'unavailable':
      return { problem: problem.problem, text: t('stock.gone'), fix: remove };
    default:
      return { problem: problem.problem, text: t('problem.cannot-send'), fix: remove };
  }
}

/** Every refused line's view, by product id (problems about products not in `items` are left out). */
export function problemViews(refused: Pick<OrderRefused, 'problems'>, items: readonly CartItem[], t: T = tr): Map<string, LineProblemView> {
  const views = new Map<string, LineProblemView>();
  for (const problem of refused.problems ?? []) {
    const item = items.find((line) => line.product_id === problem.product_id);
    if (item) views.set(problem.product_id, problemView(problem, item, t));
  }
  return views;
}

/** Reads a 409 answer body as OrderRefused; null when it is another error. */
export function asOrderRefused(status: number, body: unknown): OrderRefused | null {
  if (status !== 409 || typeof body !== 'object' || body === null) return null;
  const value = body as Partial<OrderRefused>;
  if (!Array.isArray(value.problems) || typeof value.message !== 'string') return null;
  const problems = value.problems.filter(
    (problem): problem is OrderLineProblem =>
      typeof problem === 'object' && problem !== null && typeof problem.product_id === 'string' && typeof problem.problem === 'string',
  );
  return {
    statusCode: 409,
    error: typeof value.error === 'string' ? value.error : 'Conflict',
    message: value.message,
    ...(typeof value.code === 'string' ? { code: value.code } : {}),
    problems: problems.map((problem) => ({ ...problem, ...(problem.unit ? { unit: unitOf(problem) } : {}) })),
  };
}
