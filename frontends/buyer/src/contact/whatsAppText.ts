// The messages a "Chat on WhatsApp" button pre-fills (issue 12): they name the product, quantity, unit and
// price (and the request number once sent), so the farmer knows at once what the buyer is writing about.
import { whatsAppLink } from '@tuber/contracts';
import type { SellingUnit, TuberSize } from '@tuber/ui';
import { tr, type T } from '../i18n/t.js';
import { nairaText, priceWords, quantityWords } from '../i18n/words.js';
import type { OrderRequest } from '../orders/types.js';

export interface ChatProduct {
  product_name: string;
  price: number;
  unit: SellingUnit;
  tuber_size?: TuberSize | null;
}

/** Product page: "Hello Ada Farms, I saw White yam on Tuber Market: ₦2,000.00 per heap. Is it still available?" */
export const productChatText = (businessName: string, product: ChatProduct, t: T = tr): string =>
  t('chat.product', {
    business: businessName,
    product: product.product_name,
    price: priceWords(product.price, product.unit, t, product.tuber_size),
  });

/** A cart line: "Hello Ada Farms, I have 3 heaps of White yam at ₦2,000.00 per heap in my cart on Tuber Market. Is it still available?" */
export const cartLineChatText = (businessName: string, line: ChatProduct & { quantity: number }, t: T = tr): string =>
  t('chat.cart-line', {
    business: businessName,
    quantity: quantityWords(line.quantity, line.unit, t),
    product: line.product_name,
    price: priceWords(line.price, line.unit, t),
  });

/** Without a product in view. */
export const farmerChatText = (businessName: string, t: T = tr): string => t('chat.farmer', { business: businessName });

/**
 * A sent request: "Hello Ada Farms, about my request TM-1042 on Tuber Market: 3 heaps of White yam at
 * ₦2,000.00 per heap; 2 kg of Ginger at ₦1,500.00 per kg. Total ₦9,000.00." Accepted quantities are used
 * once the farmer has set them.
 */
export function requestChatText(request: Pick<OrderRequest, 'business_name' | 'number' | 'lines' | 'total'>, t: T = tr): string {
  const lines = request.lines
    .map((line) =>
      t('chat.request-line', {
        quantity: quantityWords(line.accepted_quantity ?? line.quantity, line.unit, t),
        product: line.product_name,
        price: priceWords(line.price, line.unit, t),
      }),
    )
    .join('; ');
  return t('chat.request', { business: request.business_name, number: request.number, lines, total: nairaText(request.total) });
}

/** The wa.me link for a farmer's phone (any Nigerian form), or null when it cannot be normalised. */
export const chatLink = (phone: string | null | undefined, text: string): string | null => (phone ? whatsAppLink(phone, text) : null);
