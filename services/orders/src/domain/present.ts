// A request document as the API shows it to one party (contracts/src/orders.ts OrderRequest).
import type { OrderLine, OrderRequest, OrderStatus, SellingUnit } from '@tuber/contracts';
import type { Party } from './state-machine.js';
import type { Review } from '@tuber/contracts';
import { toNaira } from './words.js';

export interface StoredLine {
  product_id: string;
  product_name: string;
  unit: string;
  quantity: number;
  accepted_quantity?: number | null;
  price_kobo: number;
}

export interface StoredRequest {
  request_id: string;
  number: string;
  buyer_id: string;
  buyer_name: string;
  buyer_phone: string;
  farmer_id: string;
  business_name?: string | null;
  lines: StoredLine[];
  fulfilment: string;
  address?: string | null;
  preferred_date: string;
  note?: string | null;
  status: string;
  history: { status: string; at: Date; by: string; reason?: string | null }[];
  created_at: Date;
  updated_at: Date;
  revision: number;
  last_change_by: string;
  unread_buyer?: boolean | null;
  unread_farmer?: boolean | null;
}

/** Kobo of one line: price × (accepted quantity once accepted, else asked). */
export const lineKobo = (line: StoredLine) => Math.round(line.price_kobo * (line.accepted_quantity ?? line.quantity));
export const totalKobo = (lines: readonly StoredLine[]) => lines.reduce((sum, line) => sum + lineKobo(line), 0);

export function presentRequest(doc: StoredRequest, party: Party, businessName?: string, review?: Review): OrderRequest {
  const lines: OrderLine[] = doc.lines.map((line) => ({
    product_id: line.product_id,
    product_name: line.product_name,
    unit: line.unit as SellingUnit,
    quantity: line.quantity,
    ...(line.accepted_quantity != null ? { accepted_quantity: line.accepted_quantity } : {}),
    price: toNaira(line.price_kobo),
    line_total: toNaira(lineKobo(line)),
  }));
  return {
    request_id: doc.request_id,
    number: doc.number,
    buyer_id: doc.buyer_id,
    buyer_name: doc.buyer_name,
    buyer_phone: doc.buyer_phone,
    farmer_id: doc.farmer_id,
    business_name: doc.business_name || businessName || '',
    lines,
    total: toNaira(totalKobo(doc.lines)),
    fulfilment: doc.fulfilment as OrderRequest['fulfilment'],
    ...(doc.address ? { address: doc.address } : {}),
    preferred_date: doc.preferred_date,
    ...(doc.note ? { note: doc.note } : {}),
    status: doc.status as OrderStatus,
    history: doc.history.map((h) => ({
      status: h.status as OrderStatus,
      at: new Date(h.at).toISOString(),
      by: h.by as Party,
      ...(h.reason ? { reason: h.reason } : {}),
    })),
    created_at: new Date(doc.created_at).toISOString(),
    updated_at: new Date(doc.updated_at).toISOString(),
    revision: doc.revision,
    unread: party === 'buyer' ? doc.unread_buyer === true : doc.unread_farmer === true,
    ...(review ? { review } : {}),
  };
}

/** Keyset cursor over (created_at desc, request_id desc). */
export function encodeCursor(doc: { created_at: Date; request_id: string }): string {
  return Buffer.from(JSON.stringify({ c: new Date(doc.created_at).getTime(), i: doc.request_id }), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): { c: number; i: string } | undefined {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { c?: unknown; i?: unknown };
    if (typeof value.c === 'number' && Number.isFinite(value.c) && typeof value.i === 'string' && value.i.length <= 64)
      return { c: value.c, i: value.i };
  } catch {
    // not ours
  }
  return undefined;
}
