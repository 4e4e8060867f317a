// The order e-mails in five languages (issue 13, docs/adr/0044-server-languages.md): English word for word
// as before (the spec's copy), every catalogue with every English key and the same arguments, each message
// valid ICU, and a Yoruba and a Hausa mail that read in that language with the numbers as en-NG writes them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IntlMessageFormat } from 'intl-messageformat';
import { LOCALES } from '@tuber/contracts';
import { MAIL_CATALOGUES } from '../../src/mail/i18n/index.js';
import { notificationMail, type MailFacts } from '../../src/mail/messages.js';

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
    expect(mail.text).toBe(
      [
        'Ada Obi sent you order request TM-0042 (pickup, preferred date 2026-12-01).',
        '',
        'White yam: 3 heaps at ₦2,000.00 per heap = ₦6,000.00',
        'Cassava: 1 50 kg bag at ₦12,500.50 per 50 kg bag = ₦12,500.50',
        'Ginger: 2.5 kg at ₦400.00 per kg = ₦1,000.00',
        'Total: ₦19,500.50',
        '',
        'Open your inbox to accept or decline it:',
        'http://localhost:8080/dashboard/inbox',
      ].join('\n'),
    );
    expect(notificationMail({ ...facts, kind: 'accepted', to: 'buyer', reason: 'Come on Monday' }).text).toContain(
      'Ade Farms accepted your order request TM-0042. Their note: "Come on Monday"',
    );
    expect(notificationMail({ ...facts, kind: 'accepted', to: 'buyer' }).text.split('\n')[0]).toBe(
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
