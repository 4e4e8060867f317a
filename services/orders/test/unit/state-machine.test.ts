// Every (status, action, party) of the order request state machine: the legal transitions go where
// the table says, everything else is refused with the right status and a message naming what to do.
import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, type OrderStatus } from '@tuber/contracts';
import { FINAL_STATUSES, TRANSITIONS, acceptedQuantities, decide, type OrderAction, type Party } from '../../src/domain/state-machine.js';

const ACTIONS: OrderAction[] = ['accept', 'decline', 'fulfil', 'cancel'];
const PARTIES: Party[] = ['buyer', 'farmer'];

/** The table in ADR 0031, written out independently of TRANSITIONS. */
const LEGAL: Record<string, OrderStatus> = {
  'sent accept farmer': 'accepted',
  'sent decline farmer': 'declined',
  'sent cancel buyer': 'cancelled',
  'accepted fulfil farmer': 'fulfilled',
  'accepted cancel buyer': 'cancelled',
  'accepted cancel farmer': 'cancelled',
};

describe('order request state machine', () => {
  it('has exactly the transitions of the table', () => {
    const fromModule = TRANSITIONS.flatMap((t) => t.by.map((by) => [`${t.from} ${t.action} ${by}`, t.to]));
    expect(Object.fromEntries(fromModule)).toEqual(LEGAL);
  });

  for (const from of ORDER_STATUSES) {
    for (const action of ACTIONS) {
      for (const by of PARTIES) {
        const key = `${from} ${action} ${by}`;
        const to = LEGAL[key];
        if (to) {
          it(`${key} → ${to}`, () => {
            const verdict = decide('TM-1001', from, action, by, { reason: 'Rain washed the road away' });
            expect(verdict).toMatchObject({ ok: true, transition: { to } });
          });
        } else {
          it(`${key} is refused`, () => {
            const verdict = decide('TM-1001', from, action, by, { reason: 'because' });
            expect(verdict.ok).toBe(false);
            if (verdict.ok) return;
            // A buyer never accepts, declines or fulfils: that is not theirs (403). Otherwise the status is wrong (409).
            const neverTheirs = by === 'buyer' && action !== 'cancel';
            expect(verdict.status).toBe(neverTheirs ? 403 : 409);
            if (!neverTheirs) expect(verdict.problem.message).toContain('TM-1001');
            expect(verdict.problem.message.length).toBeGreaterThan(20);
            // The code says the same as the message, with the values a translation needs.
            if (neverTheirs) expect(verdict.problem).toMatchObject({ code: 'ACTION_FARMER_ONLY', params: { action } });
            else expect(verdict.problem).toMatchObject({ params: { number: 'TM-1001', status: from, action } });
          });
        }
      }
    }
  }

  it('nothing leaves a final status', () => {
    for (const from of FINAL_STATUSES) {
      for (const action of ACTIONS) for (const by of PARTIES) expect(decide('TM-1', from, action, by, { reason: 'x' }).ok).toBe(false);
    }
  });

  it('says what can be done instead', () => {
    const fulfilTooEarly = decide('TM-1042', 'sent', 'fulfil', 'farmer');
    expect(fulfilTooEarly).toMatchObject({ ok: false, status: 409 });
    expect(!fulfilTooEarly.ok && fulfilTooEarly.problem.code).toBe('ACTION_NOT_FROM_STATUS');
    expect(!fulfilTooEarly.ok && fulfilTooEarly.problem.message).toBe(
      'TM-1042 is waiting for the farmer, so you cannot mark it fulfilled; you can now accept it or decline it.',
    );
    const farmerCancelsSent = decide('TM-1042', 'sent', 'cancel', 'farmer', { reason: 'no' });
    expect(!farmerCancelsSent.ok && farmerCancelsSent.problem).toMatchObject({ code: 'ACTION_OTHER_PARTY', params: { party: 'buyer' } });
    expect(!farmerCancelsSent.ok && farmerCancelsSent.problem.message).toMatch(
      /only the buyer can cancel it now; you can now accept it or decline it/,
    );
    const buyerAgain = decide('TM-1042', 'declined', 'cancel', 'buyer', { reason: 'no' });
    expect(!buyerAgain.ok && buyerAgain.problem.message).toMatch(/was declined.*send a new request/);
    const buyerAccepts = decide('TM-1042', 'sent', 'accept', 'buyer');
    expect(buyerAccepts).toEqual({
      ok: false,
      status: 403,
      problem: { code: 'ACTION_FARMER_ONLY', message: 'Only the farmer can accept a request.', params: { action: 'accept' } },
    });
  });

  it('needs a reason to decline and to cancel, not to accept as asked or to fulfil', () => {
    expect(decide('TM-1', 'sent', 'decline', 'farmer')).toMatchObject({ ok: false, status: 400 });
    expect(decide('TM-1', 'sent', 'decline', 'farmer', { reason: '   ' })).toMatchObject({ ok: false, status: 400 });
    expect(decide('TM-1', 'sent', 'cancel', 'buyer')).toMatchObject({ ok: false, status: 400 });
    expect(decide('TM-1', 'accepted', 'cancel', 'farmer')).toMatchObject({ ok: false, status: 400 });
    expect(decide('TM-1', 'sent', 'accept', 'farmer')).toMatchObject({ ok: true });
    expect(decide('TM-1', 'accepted', 'fulfil', 'farmer')).toMatchObject({ ok: true });
  });

  it('needs a reason to accept a lowered quantity', () => {
    const verdict = decide('TM-7', 'sent', 'accept', 'farmer', { lowered: true });
    expect(verdict).toMatchObject({ ok: false, status: 400 });
    expect(!verdict.ok && verdict.problem).toMatchObject({ code: 'REASON_FOR_LOWERED', params: { number: 'TM-7' } });
    expect(!verdict.ok && verdict.problem.message).toMatch(/lowered a quantity of TM-7: give a reason/);
    expect(decide('TM-7', 'sent', 'accept', 'farmer', { lowered: true, reason: 'Only 5 kg dug so far' })).toMatchObject({ ok: true });
  });
});

describe('accepted quantities', () => {
  const asked = [
    { product_id: 'yam', product_name: 'Fresh yam', quantity: 10 },
    { product_id: 'cassava', product_name: 'Cassava', quantity: 3 },
  ];

  it('accepts lines left out as asked', () => {
    const result = acceptedQuantities(asked);
    expect(result).toMatchObject({ ok: true, lowered: false });
    expect(result.ok && Object.fromEntries(result.quantities)).toEqual({ yam: 10, cassava: 3 });
  });

  it('lowers a line and says so', () => {
    const result = acceptedQuantities(asked, [{ product_id: 'yam', quantity: 7.5 }]);
    expect(result.ok && result.lowered).toBe(true);
    expect(result.ok && result.quantities.get('yam')).toBe(7.5);
    expect(acceptedQuantities(asked, [{ product_id: 'yam', quantity: 10 }])).toMatchObject({ ok: true, lowered: false });
  });

  it('refuses more than asked, unknown products, duplicates and 3 decimals', () => {
    expect(acceptedQuantities(asked, [{ product_id: 'yam', quantity: 11 }])).toMatchObject({
      ok: false,
      problem: { code: 'ACCEPT_ABOVE_ASKED', params: { quantity: 10 }, message: expect.stringMatching(/at most the 10 .* Fresh yam/) },
    });
    expect(acceptedQuantities(asked, [{ product_id: 'ginger', quantity: 1 }])).toMatchObject({
      ok: false,
      problem: { code: 'ACCEPT_PRODUCT_UNKNOWN', message: expect.stringMatching(/not in this request/) },
    });
    expect(
      acceptedQuantities(asked, [
        { product_id: 'yam', quantity: 1 },
        { product_id: 'yam', quantity: 2 },
      ]),
    ).toMatchObject({ ok: false, problem: { code: 'ACCEPT_PRODUCT_TWICE', message: expect.stringMatching(/given twice/) } });
    expect(acceptedQuantities(asked, [{ product_id: 'yam', quantity: 1.005 }])).toMatchObject({ ok: false });
  });
});
