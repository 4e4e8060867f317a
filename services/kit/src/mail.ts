// One branded layout for every e-mail the services send (issue 25): the Tuber Market band, a greeting, the
// body, one clear button, the other party's phone and WhatsApp where the next step is to talk, and a footer;
// readable at 360 px (one column, max 600 px, tables and inline styles, as mail programs need). The words
// come in already translated; this only lays them out and escapes them. The plain-text part is made from
// the same parts.

/** Escapes text for HTML. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface MailContact {
  /** "Call or WhatsApp Ade Farms: 0803 123 4567" (already worded). */
  text: string;
  /** E.164 digits, for tel: and wa.me links. */
  e164: string;
  /** "Chat on WhatsApp". */
  whatsAppLabel: string;
  /** The chat's first message, pre-filled. */
  whatsAppText?: string;
}

export interface BrandedMail {
  lang: string;
  /** "Hello Ada," */
  greeting: string;
  /** Paragraphs of text (escaped here). A paragraph of `{ strong: … }` is bold; `{ html, text }` is HTML made safe by the caller, with its plain text. */
  paragraphs: (string | { strong: string } | { html: string; text: string })[];
  /** Lists (order lines; a digest's products and requests), each with an optional title, escaped here. */
  lists?: { title?: string; items: string[] }[];
  contact?: MailContact;
  /** The sentence before the button ("Open your inbox to accept or decline it:"). */
  closing?: string;
  action?: { label: string; href: string };
  /** Why this person gets this mail. */
  footer: string;
}

const GREEN = '#1f7a3d';
const INK = '#1b2a20';
const MUTED = '#5b6b60';

const button = (label: string, href: string, colour: string) =>
  `<a href="${escapeHtml(href)}" style="display:inline-block;padding:12px 18px;margin:4px 8px 4px 0;border-radius:999px;background:${colour};color:#ffffff;font-weight:700;text-decoration:none;font-size:16px;line-height:20px">${escapeHtml(label)}</a>`;

/** The WhatsApp chat link for E.164 digits, with a message. */
export const waLink = (e164: string, text?: string) =>
  `https://wa.me/${e164.replace(/\D/g, '')}${text ? `?text=${encodeURIComponent(text)}` : ''}`;

/** The mail's HTML part. */
export function brandedHtml(mail: BrandedMail): string {
  const paragraph = (p: BrandedMail['paragraphs'][number]) =>
    typeof p === 'string'
      ? `<p style="margin:0 0 14px">${escapeHtml(p)}</p>`
      : 'html' in p
        ? `<p style="margin:0 0 14px">${p.html}</p>`
        : `<p style="margin:0 0 14px"><strong>${escapeHtml(p.strong)}</strong></p>`;
  const list = (mail.lists ?? [])
    .filter((l) => l.items.length > 0)
    .map(
      (l) =>
        `${l.title ? `<p style="margin:0 0 6px"><strong>${escapeHtml(l.title)}</strong></p>` : ''}<ul style="margin:0 0 14px;padding-left:20px">${l.items
          .map((item) => `<li style="margin:0 0 6px">${escapeHtml(item)}</li>`)
          .join('')}</ul>`,
    )
    .join('\n');
  const contact = mail.contact
    ? `<div style="margin:0 0 14px;padding:12px;border:1px solid #cfe5d6;border-radius:10px;background:#f1f8f3">
<p style="margin:0 0 8px">${escapeHtml(mail.contact.text)}</p>
${button(mail.contact.whatsAppLabel, waLink(mail.contact.e164, mail.contact.whatsAppText), '#0f7a40')}
<a href="tel:+${escapeHtml(mail.contact.e164)}" style="color:${GREEN};font-weight:700">+${escapeHtml(mail.contact.e164)}</a>
</div>`
    : '';
  const closing = mail.closing ? `<p style="margin:0 0 6px">${escapeHtml(mail.closing)}</p>` : '';
  const action = mail.action ? `<p style="margin:8px 0 14px">${button(mail.action.label, mail.action.href, GREEN)}</p>` : '';
  return `<!doctype html>
<html lang="${escapeHtml(mail.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Tuber Market</title></head>
<body style="margin:0;padding:0;background:#f4f6f2">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f6f2"><tr><td align="center" style="padding:12px 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:12px;overflow:hidden;font-family:Arial,Helvetica,sans-serif;color:${INK};font-size:16px;line-height:24px">
<tr><td style="background:${GREEN};padding:14px 18px;color:#ffffff;font-size:20px;font-weight:800">Tuber Market</td></tr>
<tr><td style="padding:18px;overflow-wrap:anywhere;word-break:break-word">
<p style="margin:0 0 14px">${escapeHtml(mail.greeting)}</p>
${mail.paragraphs.map(paragraph).join('\n')}
${list}${contact}${closing}${action}
</td></tr>
<tr><td style="padding:12px 18px 16px;border-top:1px solid #e3e8e2;color:${MUTED};font-size:13px;line-height:18px">${escapeHtml(mail.footer)}</td></tr>
</table></td></tr></table>
</body></html>`;
}

/** The mail's plain-text part, from the same parts. */
export function brandedText(mail: BrandedMail): string {
  const lines = [mail.greeting, ''];
  for (const p of mail.paragraphs) lines.push(typeof p === 'string' ? p : 'html' in p ? p.text : p.strong, '');
  for (const l of mail.lists ?? []) {
    if (l.items.length === 0) continue;
    if (l.title) lines.push(l.title);
    lines.push(...l.items, '');
  }
  if (mail.contact) lines.push(mail.contact.text, `${mail.contact.whatsAppLabel}: ${waLink(mail.contact.e164, mail.contact.whatsAppText)}`, '');
  if (mail.closing) lines.push(mail.closing);
  if (mail.action) lines.push(mail.closing ? mail.action.href : `${mail.action.label}: ${mail.action.href}`, '');
  lines.push('--', mail.footer);
  return lines.join('\n');
}
