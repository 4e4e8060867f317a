// The messages a "Chat on WhatsApp" button pre-fills (issue 12): they name the product, quantity, unit and
// price (and the request number once sent), so the farmer knows at once what the buyer is writing about.
import { whatsAppLink } from '@tuber/contracts';
import { formatNaira, nairaToKobo, priceWithUnit, quantityText, type SellingUnit, type TuberSize } from '@tuber/ui';
import type { OrderRequest } from '../orders/types.js';

export interface ChatProduct {
  product_name: string;
  price: number;
  unit: SellingUnit;
  tuber_size?: TuberSize | null;
}

/** Product page: "Hello Ada Farms, I saw White yam on Tuber Market: ₦2,000.00 per heap. Is it still available?" */
export const productChatText = (businessName: string, product: ChatProduct): string =>
  `Hello ${businessName}, I saw ${product.product_name} on Tuber Market: ${priceWithUnit(product.price, product.unit, product.tuber_size)}. Is it still available?`;

/** A cart line: "Hello Ada Farms, I have 3 heaps of White yam at ₦2,000.00 per heap in my cart on Tuber Market. Is it still available?" */
export const cartLineChatText = (businessName: string, line: ChatProduct & { quantity: number }): string =>
  `Hello ${businessName}, I have ${quantityText(line.quantity, line.unit)} of ${line.product_name} at ${priceWithUnit(line.price, line.unit)} in my cart on Tuber Market. Is it still available?`;

/** Without a product in view. */
export const farmerChatText = (businessName: string): string => `Hello ${businessName}, I found you on Tuber Market.`;

/**
 * A sent request: "Hello Ada Farms, about my request TM-1042 on Tuber Market: 3 heaps of White yam at
 * ₦2,000.00 per heap; 2 kg of Ginger at ₦1,500.00 per kg. Total ₦9,000.00." Accepted quantities are used
 * once the farmer has set them.
 */
export function requestChatText(request: Pick<OrderRequest, 'business_name' | 'number' | 'lines' | 'total'>): string {
  const lines = request.lines
    .map(
      (line) =>
        `${quantityText(line.accepted_quantity ?? line.quantity, line.unit)} of ${line.product_name} at ${priceWithUnit(line.price, line.unit)}`,
    )
    .join('; ');
  return `Hello ${request.business_name}, about my request ${request.number} on Tuber Market: ${lines}. Total ${formatNaira(nairaToKobo(request.total))}.`;
}

/** The wa.me link for a farmer's phone (any Nigerian form), or null when it cannot be normalised. */
export const chatLink = (phone: string | null | undefined, text: string): string | null => (phone ? whatsAppLink(phone, text) : null);
