import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/domain/cursor.js';
import { koboToNaira, nairaToKobo } from '../../src/domain/money.js';

describe('feed cursor', () => {
  it('round-trips a position with its feed bucket', () => {
    const position = { createdAt: new Date('2026-11-22T10:00:00.123Z'), productId: 'p-1', bucket: 42, soldOut: false };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
    expect(decodeCursor(encodeCursor({ ...position, soldOut: true }))).toEqual({ ...position, soldOut: true });
  });
  it('rejects cursors it did not issue', () => {
    expect(decodeCursor('not-a-cursor')).toBeUndefined();
    expect(decodeCursor(Buffer.from('f2|1|yesterday|p-1').toString('base64url'))).toBeUndefined();
    expect(decodeCursor(Buffer.from('f2|-1|2026-11-22T10:00:00.000Z|p-1').toString('base64url'))).toBeUndefined();
    expect(decodeCursor(Buffer.from('f2|1|2026-11-22T10:00:00.000Z|a|b').toString('base64url'))).toBeUndefined();
  });
  it('refuses a cursor of the hour-bucket feed (ADR 0014), so an old page link gets a clear 400', () => {
    expect(decodeCursor(Buffer.from('2026-11-22T10:00:00.000Z|p-1').toString('base64url'))).toBeUndefined();
  });
});

describe('money', () => {
  it('keeps naira with up to 2 decimals exactly, as kobo', () => {
    expect(nairaToKobo(1500)).toBe(150_000);
    expect(nairaToKobo(0.1)).toBe(10);
    expect(nairaToKobo(1234.56)).toBe(123_456);
    expect(koboToNaira(123_456)).toBe(1234.56);
  });
  it('rejects negative prices and a third decimal', () => {
    expect(nairaToKobo(-1)).toBeUndefined();
    expect(nairaToKobo(10.005)).toBeUndefined();
    expect(nairaToKobo(Number.NaN)).toBeUndefined();
  });
});

import { comesBefore } from '../../src/domain/feed.js';

describe('feed order', () => {
  const at = (iso: string, id: string) => ({ created_at: new Date(iso), product_id: id });
  it('puts newer first and breaks ties by product id', () => {
    expect(comesBefore(at('2026-11-22T10:00:00Z', 'a'), at('2026-11-22T09:00:00Z', 'z'))).toBe(true);
    expect(comesBefore(at('2026-11-22T10:00:00Z', 'b'), at('2026-11-22T10:00:00Z', 'a'))).toBe(true);
    expect(comesBefore(at('2026-11-22T10:00:00Z', 'a'), at('2026-11-22T10:00:00Z', 'b'))).toBe(false);
  });
});
