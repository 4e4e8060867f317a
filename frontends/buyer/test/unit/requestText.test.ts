import { describe, expect, it } from 'vitest';
import { canCancel, dateTimeText, fulfilmentText, historyText, lineText, STATUS_TEXT } from '../../src/requests/requestText.js';
import { newRequestId } from '../../src/orders/sendRequest.js';

describe('My requests texts', () => {
  it('names every status', () => {
    expect(STATUS_TEXT).toEqual({
      sent: 'Sent',
      accepted: 'Accepted',
      declined: 'Declined',
      fulfilled: 'Fulfilled',
      cancelled: 'Cancelled',
    });
  });

  it('lets the buyer cancel only a sent or accepted request', () => {
    expect((['sent', 'accepted', 'declined', 'fulfilled', 'cancelled'] as const).filter(canCancel)).toEqual(['sent', 'accepted']);
  });

  it('says who did what in the history', () => {
    expect(historyText({ status: 'sent', by: 'buyer' })).toBe('Sent by you');
    expect(historyText({ status: 'declined', by: 'farmer' })).toBe('Declined by the farmer');
    expect(historyText({ status: 'fulfilled', by: 'farmer' })).toBe('Marked fulfilled by the farmer');
    expect(historyText({ status: 'cancelled', by: 'buyer' })).toBe('Cancelled by you');
  });

  it('shows times in Nigerian time', () => {
    expect(dateTimeText('2026-11-25T14:02:00.000Z')).toBe('25 Nov 2026, 15:02');
    expect(dateTimeText('not a date')).toBe('not a date');
  });

  it('says how and when the buyer gets the produce', () => {
    expect(fulfilmentText({ fulfilment: 'pickup', preferred_date: '2026-11-28' })).toBe('Pickup from the farm on 28 Nov 2026');
    expect(fulfilmentText({ fulfilment: 'delivery', address: '12 Oba Road, Osogbo', preferred_date: '2026-12-01' })).toBe(
      'Delivery to 12 Oba Road, Osogbo on 1 Dec 2026',
    );
  });

  it('shows a line with its unit, and what the farmer accepted when it is less', () => {
    const line = { product_id: 'a', product_name: 'Yam', unit: 'heap' as const, quantity: 3, price: 2000, line_total: 6000 };
    expect(lineText(line)).toBe('3 heaps × ₦2,000.00 per heap');
    expect(lineText({ ...line, accepted_quantity: 3 })).toBe('3 heaps × ₦2,000.00 per heap');
    expect(lineText({ ...line, accepted_quantity: 2, line_total: 4000 })).toBe('2 heaps accepted of 3 heaps asked × ₦2,000.00 per heap');
  });
});

describe('request ids', () => {
  it('are version 4 UUIDs, a new one each time', () => {
    const ids = new Set(Array.from({ length: 50 }, newRequestId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
