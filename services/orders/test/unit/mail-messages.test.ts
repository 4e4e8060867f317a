// The order e-mails in five languages (issue 13, docs/adr/0044-server-languages.md): English word for word
// as before (the spec's copy), every catalogue with every English key and the same arguments, each message
// valid ICU, and a Yoruba and a Hausa mail that read in that language with the numbers as en-NG writes them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IntlMessageFormat } from 'intl-messageformat';
import { LOCALES } from '@tuber/contracts';
import { MAIL_CATALOGUES } from '../../src/mail/i18n/index.js';
import { digestMail, notificationMail, productTally, type DigestFacts, type MailFacts } from '../../src/mail/messages.js';
import { parseVerdict } from '../../src/mail/new-request-window.js';

const facts: MailFacts = {
  kind: 'sent',
  number: 'TM-0042',
  to: 'farmer',
  buyerName: 'Ada Obi',
  businessName: 'Ade Farms',
  lines: [
    { name: 'White yam', quantity: 3, unit: 'heap', price_kobo: 200_000 },
    { name: 'Cassava', quantity: 1, unit: 'bag_50kg', price_kobo: 1_250_050 },
    { name: 'Ginger', quantity: 2.5, unit: 'kg', price_kobo: 40_000 },
  ],
  fulfilment: 'pickup',
  preferredDate: '2026-12-01',
  publicUrl: 'http://localhost:8080/',
};

type Ast = ReturnType<IntlMessageFormat['getAst']>;
const LITERAL = 0; // the parser's TYPE.literal

/** The argument names an ICU message uses (parsing throws on a malformed message). */
function argumentsOf(elements: Ast, found = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type !== LITERAL && 'value' in element && typeof element.value === 'string') found.add(element.value);
    if ('options' in element) for (const option of Object.values(element.options)) argumentsOf(option.value, found);
  }
  return found;
}
const parse = (message: string, locale: string) => new IntlMessageFormat(message, locale).getAst();

describe('order e-mails in English', () => {
  it('says exactly what it said before languages came', () => {
    const mail = notificationMail(facts);
    expect(mail.subject).toBe('New order request TM-0042 from Ada Obi');
    // Issue 25: a greeting, the date in words, and the buyer's number with WhatsApp for the farmer; the same
    // sentences as before otherwise.
    expect(mail.text).toBe(
      [
        'Hello,',
        '',
        'Ada Obi sent you order request TM-0042 (pickup, preferred date 1 December 2026).',
        '',
        'White yam: 3 heaps at ₦2,000.00 per heap = ₦6,000.00',
        'Cassava: 1 50 kg bag at ₦12,500.50 per 50 kg bag = ₦12,500.50',
        'Ginger: 2.5 kg at ₦400.00 per kg = ₦1,000.00',
        'Total: ₦19,500.50',
        '',
        'Open your inbox to accept or decline it:',
        'http://localhost:8080/dashboard/inbox',
        '',
        '--',
        'You get this e-mail because you have an account on Tuber Market. Times are Lagos time.',
      ].join('\n'),
    );
    const withPhone = notificationMail({ ...facts, recipientName: 'Ade Farms', contactPhone: '2348031234567' });
    expect(withPhone.text.split('\n')[0]).toBe('Hello Ade Farms,');
    expect(withPhone.text).toContain('Call or WhatsApp Ada Obi on 0803 123 4567 to agree the details.');
    expect(withPhone.html).toContain('https://wa.me/2348031234567?text=');
    const accepted = notificationMail({ ...facts, kind: 'accepted', to: 'buyer', recipientName: 'Ada Obi', contactPhone: '2348051112222' });
    expect(accepted.text).toContain('Call or WhatsApp Ade Farms on 0805 111 2222 to arrange pickup or delivery and payment.');
    expect(accepted.html).toContain('href="tel:+2348051112222"');
    // No number where there is nothing to arrange.
    expect(notificationMail({ ...facts, kind: 'declined', to: 'buyer', contactPhone: '2348051112222' }).text).not.toContain('WhatsApp');
    expect(notificationMail({ ...facts, kind: 'accepted', to: 'buyer', reason: 'Come on Monday' }).text).toContain(
      'Ade Farms accepted your order request TM-0042. Their note: "Come on Monday"',
    );
    expect(notificationMail({ ...facts, kind: 'accepted', to: 'buyer' }).text.split('\n')[2]).toBe(
      'Ade Farms accepted your order request TM-0042.',
    );
    expect(notificationMail({ ...facts, kind: 'declined', to: 'buyer', businessName: '', reason: 'Sold out' }).text).toContain(
      'the farmer declined your order request TM-0042. Reason: "Sold out"',
    );
    const cancelled = notificationMail({ ...facts, kind: 'cancelled', to: 'farmer', by: 'buyer', reason: 'No longer needed' });
    expect(cancelled.subject).toBe('Order request TM-0042 was cancelled');
    expect(cancelled.text).toContain('Ada Obi cancelled order request TM-0042. Reason: "No longer needed"');
    expect(cancelled.text).toContain('See it in your inbox:');
  });
});

describe('order e-mail catalogues', () => {
  const english = MAIL_CATALOGUES.en;
  for (const locale of LOCALES) {
    it(`${locale}: every English key, valid ICU, the English message's arguments`, () => {
      const catalogue = MAIL_CATALOGUES[locale];
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(english).sort());
      for (const [key, message] of Object.entries(catalogue)) {
        const args = argumentsOf(parse(message, locale));
        const wanted = argumentsOf(parse(english[key as keyof typeof english], 'en'));
        // A language with one form for every count may leave the plural's `count` out.
        wanted.delete('count');
        args.delete('count');
        expect([...args].sort(), `${locale}: ${key}`).toEqual([...wanted].sort());
      }
    });
  }

  it('a review list beside the catalogues names the four translated languages', () => {
    const review = readFileSync(new URL('../../src/mail/i18n/REVIEW.md', import.meta.url), 'utf8');
    for (const locale of ['pcm', 'yo', 'ha', 'ig']) expect(review).toContain(`${locale}.ts`);
  });
});

describe('order e-mails in other languages', () => {
  it('Yoruba, with tone marks, numbers and ₦ as en-NG writes them', () => {
    const mail = notificationMail({ ...facts, locale: 'yo' });
    expect(mail.subject).toBe('Ìbéèrè ọjà tuntun TM-0042 láti ọ̀dọ̀ Ada Obi');
    expect(mail.text).toContain('White yam: òkìtì 3 ní ₦2,000.00 fún òkìtì kan = ₦6,000.00');
    expect(mail.text).toContain('Àpapọ̀: ₦19,500.50');
    expect(mail.html).toContain('lang="yo"');
  });

  it('Hausa and Pidgin subjects; Pidgin keeps the English plural', () => {
    expect(notificationMail({ ...facts, kind: 'accepted', to: 'buyer', locale: 'ha' }).subject).toBe('An karɓi buƙatar odarka TM-0042');
    expect(notificationMail({ ...facts, locale: 'pcm' }).text).toContain('White yam: 3 heaps for ₦2,000.00 per heap');
  });
});

// The farmer's digest of new requests held back over the mail bound (issue 24, docs/adr/0060).
const digest: DigestFacts = {
  requests: [
    { number: 'TM-1004', buyerName: 'Ada Obi', productNames: ['White yam', 'Ginger'] },
    { number: 'TM-1005', buyerName: 'Bola Ade', productNames: ['White yam'] },
    { number: 'TM-1006', buyerName: 'Ada Obi', productNames: ['Cassava'] },
  ],
  windowMinutes: 10,
  publicUrl: 'http://localhost:8080/',
};

describe('the digest of new requests', () => {
  it('says how many requests came, for which products (most asked first), and lists each with its buyer', () => {
    const mail = digestMail(digest);
    expect(mail.subject).toBe('3 more new order requests in your inbox');
    expect(mail.text).toBe(
      [
        'Hello,',
        '',
        'You received 3 more order requests in 10 minutes. To keep your mailbox calm, they come together in this one e-mail instead of one e-mail each.',
        '',
        'Products asked for:',
        'White yam: 2 requests',
        'Cassava: 1 request',
        'Ginger: 1 request',
        '',
        'Requests:',
        'TM-1004 from Ada Obi: White yam, Ginger',
        'TM-1005 from Bola Ade: White yam',
        'TM-1006 from Ada Obi: Cassava',
        '',
        'Open your inbox to accept or decline them:',
        'http://localhost:8080/dashboard/inbox',
        '',
        '--',
        'You get this e-mail because you have an account on Tuber Market. Times are Lagos time.',
      ].join('\n'),
    );
    expect(mail.html).toMatch(/<li[^>]*>White yam: 2 requests<\/li>/);
    expect(digestMail({ ...digest, requests: digest.requests.slice(0, 1) }).subject).toBe('1 more new order request in your inbox');
  });

  it('counts a product once per request, and escapes names in the HTML', () => {
    expect(productTally([{ number: 'TM-1', buyerName: 'A', productNames: ['Yam', 'Yam'] }])).toEqual([{ name: 'Yam', count: 1 }]);
    const html = digestMail({ ...digest, requests: [{ number: 'TM-1', buyerName: '<b>Eve</b>', productNames: ['Yam'] }] }).html;
    expect(html).not.toContain('<b>Eve</b>');
    expect(html).toContain('&#60;b&#62;Eve&#60;/b&#62;');
  });

  it.each(['pcm', 'yo', 'ha', 'ig'] as const)('%s: in the farmer’s language, with the numbers and names as they are', (locale) => {
    const mail = digestMail({ ...digest, locale });
    expect(mail.subject).not.toBe(digestMail(digest).subject);
    expect(mail.subject).toContain('3');
    expect(mail.text).toContain('TM-1004');
    expect(mail.text).toContain('White yam');
    expect(mail.html).toContain(`lang="${locale}"`);
  });

  it('Yoruba reads in Yoruba', () => {
    const mail = digestMail({ ...digest, locale: 'yo' });
    expect(mail.subject).toBe('Ìbéèrè ọjà tuntun 3 mìíràn wà nínú àpótí ìbéèrè rẹ');
    expect(mail.text).toContain('TM-1005 láti ọ̀dọ̀ Bola Ade: White yam');
    expect(mail.text).toContain('White yam: ìbéèrè 2');
  });

  it('reads the verdict Redis keeps: single, or digest due at the window end', () => {
    expect(parseVerdict('single')).toEqual({ kind: 'single' });
    expect(parseVerdict('digest:1795890000000')).toEqual({ kind: 'digest', dueAt: new Date(1795890000000) });
    expect(parseVerdict('digest:nonsense')).toEqual({ kind: 'single' });
  });
});
