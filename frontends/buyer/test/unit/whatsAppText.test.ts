import { describe, expect, it } from 'vitest';
import { cartLineChatText, chatLink, farmerChatText, productChatText, requestChatText } from '../../src/contact/whatsAppText.js';

describe('Chat on WhatsApp messages', () => {
  it('names the product and its price with the unit on the product page', () => {
    expect(productChatText('Ada Farms', { product_name: 'Abakaliki yam', price: 2000, unit: 'heap' })).toBe(
      'Hello Ada Farms, I saw Abakaliki yam on Tuber Market: ₦2,000.00 per heap. Is it still available?',
    );
    expect(productChatText('Ada Farms', { product_name: 'Big yam', price: 850.5, unit: 'tuber', tuber_size: 'large' })).toBe(
      'Hello Ada Farms, I saw Big yam on Tuber Market: ₦850.50 per large tuber. Is it still available?',
    );
  });

  it('names the quantity in the cart', () => {
    expect(cartLineChatText('Ada Farms', { product_name: 'Gari roots', price: 30000, unit: 'bag_50kg', quantity: 2 })).toBe(
      'Hello Ada Farms, I have 2 bags of 50 kg of Gari roots at ₦30,000.00 per 50 kg bag in my cart on Tuber Market. Is it still available?',
    );
  });

  it('names the request number, each product with quantity, unit and price, and the total', () => {
    const text = requestChatText({
      business_name: 'Ada Farms',
      number: 'TM-1042',
      total: 9001,
      lines: [
        { product_id: 'a', product_name: 'Abakaliki yam', unit: 'heap', quantity: 3, price: 2000, line_total: 6000 },
        { product_id: 'b', product_name: 'Ginger', unit: 'kg', quantity: 2, price: 1500.5, line_total: 3001 },
      ],
    });
    expect(text).toBe(
      'Hello Ada Farms, about my request TM-1042 on Tuber Market: 3 heaps of Abakaliki yam at ₦2,000.00 per heap; 2 kg of Ginger at ₦1,500.50 per kg. Total ₦9,001.00.',
    );
  });

  it('uses what the farmer accepted once they lowered a quantity', () => {
    const text = requestChatText({
      business_name: 'Ada Farms',
      number: 'TM-7',
      total: 2000,
      lines: [{ product_id: 'a', product_name: 'Yam', unit: 'heap', quantity: 3, accepted_quantity: 1, price: 2000, line_total: 2000 }],
    });
    expect(text).toContain('1 heap of Yam at ₦2,000.00 per heap');
  });

  it('greets the farmer when no product is in view', () => {
    expect(farmerChatText('Ada Farms')).toBe('Hello Ada Farms, I found you on Tuber Market.');
  });

  it('links to wa.me with the number in E.164 and the text encoded, or nothing when the phone cannot be normalised', () => {
    expect(chatLink('0803 123 4567', 'Hello Ada & co, ₦2,000.00?')).toBe(
      `https://wa.me/2348031234567?text=${encodeURIComponent('Hello Ada & co, ₦2,000.00?')}`,
    );
    expect(chatLink('+2348030000000', 'Hi')).toBe('https://wa.me/2348030000000?text=Hi');
    expect(chatLink('+44 20 7946 0958', 'Hi')).toBeNull();
    expect(chatLink('', 'Hi')).toBeNull();
    expect(chatLink(undefined, 'Hi')).toBeNull();
  });
});
