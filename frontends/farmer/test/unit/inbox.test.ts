import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, whatsAppLink, type OrderLine, type OrderRequest } from '@tuber/contracts';
// The service's state machine, read only to hold the buttons offered here to what it allows a farmer.
import { TRANSITIONS } from '../../../../services/orders/src/domain/state-machine.js';
import {
  acceptBody,
  actionPath,
  allowedActions,
  belongsTo,
  historyText,
  initialQuantities,
  loadFailedText,
  momentText,
  REASON_REQUIRED,
  REASON_REQUIRED_WHEN_LOWERED,
  REASON_TOO_LONG,
  reasonProblem,
  requestsPath,
  TAB_STATUSES,
  telHref,
  whatsAppText,
} from '../../src/inbox/inbox.js';

const yam: OrderLine = { product_id: 'p-yam', product_name: 'White yam', unit: 'kg', quantity: 10, price: 2500, line_total: 25000 };
const heaps: OrderLine = { product_id: 'p-cassava', product_name: 'Cassava', unit: 'heap', quantity: 3, price: 2000.5, line_total: 6001.5 };

const request = (overrides: Partial<OrderRequest> = {}): OrderRequest => ({
  request_id: 'r-1',
  number: 'TM-1042',
  buyer_id: 'b-1',
  buyer_name: 'Chioma Obi',
  buyer_phone: '2348031234567',
  farmer_id: 'f-1',
  business_name: 'Ada Farms',
  lines: [yam, heaps],
  total: 31001.5,
  fulfilment: 'pickup',
  preferred_date: '2026-12-01',
  status: 'sent',
  history: [{ status: 'sent', at: '2026-11-25T13:03:00Z', by: 'buyer' }],
  created_at: '2026-11-25T13:03:00Z',
  updated_at: '2026-11-25T13:03:00Z',
  revision: 1,
  unread: true,
  ...overrides,
});

describe('which actions a status allows the farmer', () => {
  it('offers Accept and Decline on a new request, Mark fulfilled and Cancel on an accepted one, nothing on a closed one', () => {
    expect(allowedActions('sent')).toEqual(['accept', 'decline']);
    expect(allowedActions('accepted')).toEqual(['fulfil', 'cancel']);
    for (const closed of ['declined', 'fulfilled', 'cancelled'] as const) expect(allowedActions(closed)).toEqual([]);
  });
  it('offers exactly what the orders service’s state machine lets a farmer do, status by status', () => {
    for (const status of ORDER_STATUSES) {
      const legal = TRANSITIONS.filter((t) => t.from === status && t.by.includes('farmer')).map((t) => t.action);
      expect([...allowedActions(status)].sort(), status).toEqual([...legal].sort());
    }
  });
  it('posts each action to its route', () => {
    expect(actionPath('r 1', 'accept')).toBe('/orders/requests/r%201/accept');
    expect(actionPath('r-1', 'fulfil')).toBe('/orders/requests/r-1/fulfil');
    expect(actionPath('r-1', 'read')).toBe('/orders/requests/r-1/read');
  });
});

describe('tabs', () => {
  it('New, Accepted and Closed cover every status once', () => {
    const covered = [...TAB_STATUSES.new, ...TAB_STATUSES.accepted, ...TAB_STATUSES.closed].sort();
    expect(covered).toEqual([...ORDER_STATUSES].sort());
  });
  it('asks the service for one status, and reads every request for Closed (filtered here)', () => {
    expect(requestsPath('new')).toBe('/orders/requests?status=sent&limit=20');
    expect(requestsPath('accepted', 'abc')).toBe('/orders/requests?status=accepted&limit=20&cursor=abc');
    expect(requestsPath('closed')).toBe('/orders/requests?limit=50');
    expect(requestsPath('all')).toBe('/orders/requests?limit=20');
    expect(belongsTo('closed', 'declined')).toBe(true);
    expect(belongsTo('closed', 'accepted')).toBe(false);
    expect(belongsTo('all', 'sent')).toBe(true);
  });
});

describe('the accept body', () => {
  it('prefills each line with the quantity asked', () => {
    expect(initialQuantities([yam, heaps])).toEqual({ 'p-yam': '10', 'p-cassava': '3' });
  });
  it('accepts as asked with an empty body (lines left out are accepted as asked)', () => {
    expect(acceptBody([yam, heaps], initialQuantities([yam, heaps]), '')).toEqual({ ok: true, body: {}, lowered: false });
  });
  it('sends the lowered lines with the reason', () => {
    const check = acceptBody([yam, heaps], { 'p-yam': '7.5', 'p-cassava': '3' }, '  Only 7.5 kg left after the rain  ');
    expect(check).toEqual({
      ok: true,
      body: { lines: [{ product_id: 'p-yam', quantity: 7.5 }], reason: 'Only 7.5 kg left after the rain' },
      lowered: true,
    });
  });
  it('requires a reason when any quantity is lowered', () => {
    expect(acceptBody([yam, heaps], { 'p-yam': '10', 'p-cassava': '2' }, '   ')).toEqual({
      ok: false,
      lineProblems: {},
      reasonProblem: REASON_REQUIRED_WHEN_LOWERED,
    });
  });
  it('refuses a quantity above the asked one, 0, or no number', () => {
    const check = acceptBody([yam, heaps], { 'p-yam': '11', 'p-cassava': '0' }, '');
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.lineProblems['p-yam']).toBe('You can accept at most the 10 kg asked for.');
    expect(check.lineProblems['p-cassava']).toBe('Accept more than 0, or decline the request.');
    expect(acceptBody([yam], { 'p-yam': '' }, '').ok).toBe(false);
    expect(acceptBody([yam], { 'p-yam': 'ten' }, '').ok).toBe(false);
  });
  it('rounds a typed quantity to 2 decimals, as the service counts it', () => {
    expect(acceptBody([yam], { 'p-yam': '2.555' }, 'short')).toEqual({
      ok: true,
      body: { lines: [{ product_id: 'p-yam', quantity: 2.56 }], reason: 'short' },
      lowered: true,
    });
  });
  it('keeps an optional message when nothing is lowered, and refuses one over 300 characters', () => {
    expect(acceptBody([yam], { 'p-yam': '10' }, 'See you Friday')).toEqual({
      ok: true,
      body: { reason: 'See you Friday' },
      lowered: false,
    });
    expect(acceptBody([yam], { 'p-yam': '5' }, 'x'.repeat(301))).toMatchObject({ ok: false, reasonProblem: REASON_TOO_LONG });
  });
});

describe('decline and cancel reasons', () => {
  it('are required and at most 300 characters', () => {
    expect(reasonProblem('  ')).toBe(REASON_REQUIRED);
    expect(reasonProblem('x'.repeat(301))).toBe(REASON_TOO_LONG);
    expect(reasonProblem('Sold at the market this morning')).toBeNull();
  });
});

describe('WhatsApp and phone', () => {
  it('names the request number, each product with its quantity, unit and price, and the total', () => {
    expect(whatsAppText(request())).toBe(
      [
        'Hello Chioma Obi, this is Ada Farms on Tuber Market about your request TM-1042:',
        '- White yam: 10 kg at ₦2,500.00 per kg',
        '- Cassava: 3 heaps at ₦2,000.50 per heap',
        'Total: ₦31,001.50',
      ].join('\n'),
    );
  });
  it('uses the accepted quantity once a line is accepted lower', () => {
    const accepted = request({ status: 'accepted', lines: [{ ...yam, accepted_quantity: 7.5, line_total: 18750 }], total: 18750 });
    expect(whatsAppText(accepted)).toContain('- White yam: 7.5 kg at ₦2,500.00 per kg\nTotal: ₦18,750.00');
  });
  it('opens wa.me on the buyer’s number with that text', () => {
    const link = whatsAppLink(request().buyer_phone, whatsAppText(request()));
    expect(link).toMatch(/^https:\/\/wa\.me\/2348031234567\?text=/);
    expect(decodeURIComponent(link!.split('?text=')[1]!)).toContain('TM-1042');
  });
  it('calls the buyer on the international number', () => {
    expect(telHref('2348031234567')).toBe('tel:+2348031234567');
  });
});

describe('history', () => {
  it('says who did what', () => {
    expect(historyText({ status: 'sent', by: 'buyer' })).toBe('Sent by the buyer');
    expect(historyText({ status: 'accepted', by: 'farmer' })).toBe('Accepted by you');
    expect(historyText({ status: 'fulfilled', by: 'farmer' })).toBe('Marked fulfilled by you');
    expect(historyText({ status: 'cancelled', by: 'buyer' })).toBe('Cancelled by the buyer');
  });
  it('dates a moment in the farmer’s time zone', () => {
    expect(momentText('2026-11-25T13:03:00Z')).toBe('25 Nov 2026, 14:03'); // Lagos time, whatever the phone's zone
  });
});

describe('a list that did not load', () => {
  it('says "Error: {message}", and in words when the orders service is not answering', () => {
    expect(
      loadFailedText({ statusCode: 400, code: 'PAGE_LINK_INVALID', message: 'This page link is not valid any more; start again from the first page.' }),
    ).toBe('Error: This page link has expired. Start again from the first page.');
    expect(loadFailedText({ statusCode: 502, message: 'Request failed with status 502' })).toBe(
      'Error: Your requests could not be loaded: the service is not answering right now. Try again in a moment.',
    );
    expect(loadFailedText({ statusCode: 0, message: 'Failed to fetch' })).toMatch(/not answering/);
  });
});
