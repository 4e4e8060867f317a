// What the notification e-mails say (issue 12): the request number in the subject; the lines, the
// total and a link to the right page in the body. Pure, so the words are tested.
import { formatKobo, formatQuantity, perUnit } from '../domain/words.js';

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
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function notificationMail(facts: MailFacts): { subject: string; text: string; html: string; link: string } {
  const farmer = facts.businessName || 'the farmer';
  const link = `${facts.publicUrl.replace(/\/$/, '')}${facts.to === 'farmer' ? '/dashboard/inbox' : '/dashboard/requests'}`;
  const total = facts.lines.reduce((sum, line) => sum + Math.round(line.price_kobo * line.quantity), 0);
  const lines = facts.lines.map(
    (line) =>
      `${line.name}: ${formatQuantity(line.quantity, line.unit)} at ${formatKobo(line.price_kobo)} ${perUnit(line.unit)} = ${formatKobo(Math.round(line.price_kobo * line.quantity))}`,
  );
  let subject: string;
  let opening: string;
  let action: string;
  switch (facts.kind) {
    case 'sent':
      subject = `New order request ${facts.number} from ${facts.buyerName}`;
      opening = `${facts.buyerName} sent you order request ${facts.number} (${facts.fulfilment}, preferred date ${facts.preferredDate}).`;
      action = 'Open your inbox to accept or decline it:';
      break;
    case 'accepted':
      subject = `Your order request ${facts.number} was accepted`;
      opening = `${farmer} accepted your order request ${facts.number}.${facts.reason ? ` Their note: "${facts.reason}"` : ''}`;
      action = 'Contact the farmer to arrange pickup or delivery and payment. See the request:';
      break;
    case 'declined':
      subject = `Your order request ${facts.number} was declined`;
      opening = `${farmer} declined your order request ${facts.number}. Reason: "${facts.reason ?? ''}"`;
      action = 'You can send a new request to another farmer. See the request:';
      break;
    case 'fulfilled':
      subject = `Your order request ${facts.number} was fulfilled`;
      opening = `${farmer} marked your order request ${facts.number} as fulfilled.`;
      action = 'See the request:';
      break;
    case 'cancelled':
      subject = `Order request ${facts.number} was cancelled`;
      opening = `${facts.by === 'buyer' ? facts.buyerName : farmer} cancelled order request ${facts.number}. Reason: "${facts.reason ?? ''}"`;
      action = facts.to === 'farmer' ? 'See it in your inbox:' : 'See the request:';
      break;
  }
  const text = [opening, '', ...lines, `Total: ${formatKobo(total)}`, '', action, link].join('\n');
  const html = `<p>${escape(opening)}</p>
<ul>${lines.map((line) => `<li>${escape(line)}</li>`).join('')}</ul>
<p><strong>Total: ${escape(formatKobo(total))}</strong></p>
<p>${escape(action)} <a href="${escape(link)}">${escape(link)}</a></p>`;
  return { subject, text, html, link };
}
