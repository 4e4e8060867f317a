// What the notification e-mails say (issue 12), in the recipient's language (issue 13: en, pcm, yo, ha,
// ig; English when it is not known — docs/adr/0044-server-languages.md): the request number in the subject;
// the lines, the total and a link to the right page in the body. Pure, so the words are tested.
import { DEFAULT_LOCALE, SELLING_UNITS, type Locale, type SellingUnit } from '@tuber/contracts';
import { formatKobo, formatQuantity, perUnit } from '../domain/words.js';
import { say, type MailKey } from './i18n/index.js';

export type MailKind = 'sent' | 'accepted' | 'declined' | 'fulfilled' | 'cancelled';

export interface MailFacts {
  kind: MailKind;
  number: string;
  /** Who gets it. */
  to: 'buyer' | 'farmer';
  buyerName: string;
  businessName: string;
  lines: { name: string; quantity: number; unit: string; price_kobo: number }[];
  reason?: string | undefined;
  /** Who cancelled (cancelled only). */
  by?: 'buyer' | 'farmer' | undefined;
  fulfilment: string;
  preferredDate: string;
  publicUrl: string;
  /** The recipient's language; English when not given. */
  locale?: Locale | undefined;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const NUMBER = new Intl.NumberFormat('en-NG', { maximumFractionDigits: 2 });
const isUnit = (unit: string): unit is SellingUnit => (SELLING_UNITS as readonly string[]).includes(unit);

/** "3 heaps" / "òkìtì 3"; a unit the product does not know stays as the English words put it. */
function quantityIn(locale: Locale, quantity: number, unit: string): string {
  if (!isUnit(unit)) return formatQuantity(quantity, unit);
  return say(locale, `quantity_${unit}` as MailKey, { n: NUMBER.format(quantity), count: quantity });
}

const perUnitIn = (locale: Locale, unit: string) => (isUnit(unit) ? say(locale, `per_${unit}` as MailKey) : perUnit(unit));

export function notificationMail(facts: MailFacts): { subject: string; text: string; html: string; link: string } {
  const locale = facts.locale ?? DEFAULT_LOCALE;
  const farmer = facts.businessName || say(locale, 'the_farmer');
  const link = `${facts.publicUrl.replace(/\/$/, '')}${facts.to === 'farmer' ? '/dashboard/inbox' : '/dashboard/requests'}`;
  const total = facts.lines.reduce((sum, line) => sum + Math.round(line.price_kobo * line.quantity), 0);
  const lines = facts.lines.map((line) =>
    say(locale, 'line', {
      name: line.name,
      quantity: quantityIn(locale, line.quantity, line.unit),
      price: formatKobo(line.price_kobo),
      perUnit: perUnitIn(locale, line.unit),
      amount: formatKobo(Math.round(line.price_kobo * line.quantity)),
    }),
  );
  const number = facts.number;
  const reason = facts.reason ?? '';
  let subject: string;
  let opening: string;
  let action: string;
  switch (facts.kind) {
    case 'sent': {
      const fulfilment =
        facts.fulfilment === 'pickup' || facts.fulfilment === 'delivery' ? say(locale, `fulfilment_${facts.fulfilment}`) : facts.fulfilment;
      subject = say(locale, 'subject_sent', { number, buyer: facts.buyerName });
      opening = say(locale, 'opening_sent', { buyer: facts.buyerName, number, fulfilment, date: facts.preferredDate });
      action = say(locale, 'action_sent');
      break;
    }
    case 'accepted':
      subject = say(locale, 'subject_accepted', { number });
      opening = say(locale, 'opening_accepted', { farmer, number, hasNote: facts.reason ? 'yes' : 'no', note: reason });
      action = say(locale, 'action_accepted');
      break;
    case 'declined':
      subject = say(locale, 'subject_declined', { number });
      opening = say(locale, 'opening_declined', { farmer, number, reason });
      action = say(locale, 'action_declined');
      break;
    case 'fulfilled':
      subject = say(locale, 'subject_fulfilled', { number });
      opening = say(locale, 'opening_fulfilled', { farmer, number });
      action = say(locale, 'action_see');
      break;
    case 'cancelled':
      subject = say(locale, 'subject_cancelled', { number });
      opening = say(locale, 'opening_cancelled', { who: facts.by === 'buyer' ? facts.buyerName : farmer, number, reason });
      action = say(locale, facts.to === 'farmer' ? 'action_cancelled_farmer' : 'action_see');
      break;
  }
  const totalLine = say(locale, 'total', { total: formatKobo(total) });
  const text = [opening, '', ...lines, totalLine, '', action, link].join('\n');
  const html = `<div lang="${locale}">
<p>${escape(opening)}</p>
<ul>${lines.map((line) => `<li>${escape(line)}</li>`).join('')}</ul>
<p><strong>${escape(totalLine)}</strong></p>
<p>${escape(action)} <a href="${escape(link)}">${escape(link)}</a></p>
</div>`;
  return { subject, text, html, link };
}

/** What one farmer's digest names (issue 24, docs/adr/0060): the requests held back in a window. */
export interface DigestFacts {
  requests: { number: string; buyerName: string; productNames: string[] }[];
  /** The window's length, as the opening says it. */
  windowMinutes: number;
  publicUrl: string;
  locale?: Locale | undefined;
}

/** How many of the held requests asked for each product, most asked first (then by name). */
export function productTally(requests: DigestFacts['requests']): { name: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const request of requests) for (const name of new Set(request.productNames)) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

/** One mail for the new requests held back from a farmer's window: how many, which products, which requests. */
export function digestMail(facts: DigestFacts): { subject: string; text: string; html: string; link: string } {
  const locale = facts.locale ?? DEFAULT_LOCALE;
  const count = facts.requests.length;
  const link = `${facts.publicUrl.replace(/\/$/, '')}/dashboard/inbox`;
  const subject = say(locale, 'subject_digest', { count });
  const opening = say(locale, 'opening_digest', { count, minutes: facts.windowMinutes });
  const products = productTally(facts.requests).map((p) => say(locale, 'digest_product', { name: p.name, count: p.count }));
  const requests = facts.requests.map((r) =>
    say(locale, 'digest_request', { number: r.number, buyer: r.buyerName, products: r.productNames.join(', ') }),
  );
  const productsTitle = say(locale, 'digest_products');
  const requestsTitle = say(locale, 'digest_requests');
  const action = say(locale, 'action_digest');
  const text = [opening, '', productsTitle, ...products, '', requestsTitle, ...requests, '', action, link].join('\n');
  const list = (items: string[]) => `<ul>${items.map((item) => `<li>${escape(item)}</li>`).join('')}</ul>`;
  const html = `<div lang="${locale}">
<p>${escape(opening)}</p>
<p><strong>${escape(productsTitle)}</strong></p>
${list(products)}
<p><strong>${escape(requestsTitle)}</strong></p>
${list(requests)}
<p>${escape(action)} <a href="${escape(link)}">${escape(link)}</a></p>
</div>`;
  return { subject, text, html, link };
}
