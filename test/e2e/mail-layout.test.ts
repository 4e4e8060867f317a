// The order e-mails (issue 25): one branded layout, read on a 360 px phone in every language, each kind. Built
// by the orders service's own functions and shown in headless Chromium as a mail program shows HTML: nothing
// scrolls sideways, the greeting, the button and (where the next step is to talk) WhatsApp are there.
// Screenshots: test-artifacts/mail-<kind>-<language>.png.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES } from '@tuber/contracts';
import { digestMail, notificationMail, type MailFacts } from '../../services/orders/src/mail/messages.js';
import { launchBrowser, screenshot } from './support/browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const base: MailFacts = {
  kind: 'sent',
  number: 'TM-0042',
  to: 'farmer',
  buyerName: 'Ada Obi',
  businessName: 'Okafor Cassava Farms and Sons of Enugu',
  lines: [
    { name: 'White yam from the river farm', quantity: 3, unit: 'heap', price_kobo: 200_000 },
    { name: 'Cassava', quantity: 1, unit: 'bag_50kg', price_kobo: 1_250_050 },
  ],
  fulfilment: 'pickup',
  preferredDate: '2026-12-01',
  publicUrl: 'http://localhost:8080',
  recipientName: 'Okafor Cassava Farms and Sons of Enugu',
  contactPhone: '2348031234567',
};

const kinds: [string, Partial<MailFacts>][] = [
  ['sent', {}],
  ['accepted', { kind: 'accepted', to: 'buyer', recipientName: 'Ada Obi', contactPhone: '2348051112222', reason: 'Come on Monday morning' }],
  ['declined', { kind: 'declined', to: 'buyer', recipientName: 'Ada Obi', reason: 'The yam is not ready yet' }],
  ['cancelled', { kind: 'cancelled', to: 'farmer', by: 'buyer', reason: 'No longer needed' }],
];

describe('order e-mails at 360 px (issue 25)', () => {
  for (const locale of LOCALES) {
    it(`${locale}: every kind and the digest fit a phone, with a greeting, a button and, where it helps, WhatsApp`, async () => {
      const page = await browser.newPage({ viewport: { width: 360, height: 800 } });
      try {
        const mails: [string, { html: string; text: string }][] = [
          ...kinds.map(([name, change]) => [name, notificationMail({ ...base, ...change, locale })] as [string, { html: string; text: string }]),
          [
            'digest',
            digestMail({
              requests: [
                { number: 'TM-1004', buyerName: 'Ada Obi', productNames: ['White yam', 'Ginger'] },
                { number: 'TM-1005', buyerName: 'Bola Ade', productNames: ['White yam'] },
              ],
              windowMinutes: 10,
              publicUrl: 'http://localhost:8080',
              locale,
              recipientName: 'Okafor Cassava Farms',
            }),
          ],
        ];
        for (const [name, mail] of mails) {
          await page.setContent(mail.html);
          const layout = await page.evaluate(() => ({
            overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
            lang: document.documentElement.lang,
            buttons: [...document.querySelectorAll('a')].map((a) => a.getAttribute('href')),
            band: document.body.innerText.trim().split('\n')[0],
          }));
          await screenshot(page, `mail-${name}-${locale}`);
          expect(layout.overflow, `${name} in ${locale} scrolls sideways`).toBeLessThanOrEqual(0);
          expect(layout.lang).toBe(locale);
          expect(layout.band).toBe('Tuber Market');
          expect(layout.buttons.some((href) => href?.startsWith('http://localhost:8080/dashboard/')), `${name}: a button`).toBe(true);
          const talk = name === 'sent' || name === 'accepted';
          expect(layout.buttons.some((href) => href?.startsWith('https://wa.me/')), `${name}: WhatsApp`).toBe(talk);
          // The plain-text part says the same, greeting first.
          expect(mail.text.split('\n')[0]).toMatch(/,$/);
        }
      } finally {
        await page.close();
      }
    }, 60_000);
  }
});
