// What the notification e-mails say (issue 12), in the recipient's language (issue 13: en, pcm, yo, ha,
// ig; English when it is not known — docs/adr/0044-server-languages.md): the request number in the subject;
// the lines, the total and a link to the right page in the body. Pure, so the words are tested.
import { DEFAULT_LOCALE, SELLING_UNITS, type Locale, type SellingUnit } from '@tuber/contracts';
import { formatKobo, formatQuantity, perUnit } from '../domain/words.js';
import { brandedHtml, brandedText, type BrandedMail } from '@tuber/kit';
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
  /** Whom the greeting names (the buyer's name, the farm's name); none: "Hello,". */
  recipientName?: string | undefined;
  /** The other party's phone (E.164 digits) where the next step is to talk: the buyer's on a new request, the farmer's once accepted. */
  contactPhone?: string | undefined;
}


/** "0803 123 4567" from E.164 digits (2348031234567), as Nigerians write a number. */
const localPhone = (e164: string) => {
  const digits = e164.replace(/\D/g, '');
  return digits.startsWith('234') && digits.length === 13 ? `0${digits.slice(3, 6)} ${digits.slice(6, 9)} ${digits.slice(9)}` : `+${digits}`;
};

/** A calendar day (YYYY-MM-DD) in the reader's language: "28 November 2026", "28 Oṣù Bélú 2026". */
export function mailDay(day: string, locale: Locale): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12));
  const tag = Intl.DateTimeFormat.supportedLocalesOf([`${locale}-NG`, locale])[0] ?? 'en-NG';
  return new Intl.DateTimeFormat(tag, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}

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
      opening = say(locale, 'opening_sent', { buyer: facts.buyerName, number, fulfilment, date: mailDay(facts.preferredDate, locale) });
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
  // Where the next step is to talk (issue 25): the farmer gets the buyer's number with a new request, the
  // buyer the farmer's once accepted, each with a WhatsApp button that names the request.
  const talk = (facts.kind === 'sent' && facts.to === 'farmer') || (facts.kind === 'accepted' && facts.to === 'buyer');
  const contact =
    talk && facts.contactPhone
      ? {
          text: say(locale, facts.to === 'farmer' ? 'contact_buyer' : 'contact_farmer', {
            name: facts.to === 'farmer' ? facts.buyerName : farmer,
            phone: localPhone(facts.contactPhone),
          }),
          e164: facts.contactPhone.replace(/\D/g, ''),
          whatsAppLabel: say(locale, 'whatsapp'),
          whatsAppText: say(locale, 'chat_text', { number }),
        }
      : undefined;
  const mail: BrandedMail = {
    lang: locale,
    greeting: say(locale, 'greeting', { hasName: facts.recipientName ? 'yes' : 'no', name: facts.recipientName ?? '' }),
    paragraphs: [opening],
    lists: [{ items: [...lines, totalLine] }],
    ...(contact ? { contact } : {}),
    closing: action,
    action: { label: say(locale, facts.to === 'farmer' ? 'open_inbox' : 'open_requests'), href: link },
    footer: say(locale, 'footer'),
  };
  return { subject, text: brandedText(mail), html: brandedHtml(mail), link };
}

/** What one farmer's digest names (issue 24, docs/adr/0060): the requests held back in a window. */
export interface DigestFacts {
  requests: { number: string; buyerName: string; productNames: string[] }[];
  /** The window's length, as the opening says it. */
  windowMinutes: number;
  publicUrl: string;
  locale?: Locale | undefined;
  /** The farm's name, for the greeting. */
  recipientName?: string | undefined;
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
  const mail: BrandedMail = {
    lang: locale,
    greeting: say(locale, 'greeting', { hasName: facts.recipientName ? 'yes' : 'no', name: facts.recipientName ?? '' }),
    paragraphs: [opening],
    lists: [
      { title: productsTitle, items: products },
      { title: requestsTitle, items: requests },
    ],
    closing: action,
    action: { label: say(locale, 'open_inbox'), href: link },
    footer: say(locale, 'footer'),
  };
  return { subject, text: brandedText(mail), html: brandedHtml(mail), link };
}
