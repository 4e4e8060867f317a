// New-request alerts by SMS (issue 26, docs/adr/0070): a farmer who switched them on in the profile, with a
// verified number, gets a short SMS per new request besides the e-mail. The profile service tells where they
// go (FarmerSmsAlertsChanged, kept on the contact); a durable consumer of our own OrderSent sends them.
// Bounded with the mails (docs/adr/0060): a request the mail bound holds for the digest gets no SMS either,
// so a flood of requests makes at most a few SMS per window. At least once, never twice per request (mail/once.ts).
import { DEFAULT_LOCALE, OrderSent, localeOf } from '@tuber/contracts';
import type { EventBus, RedisClient, SmsSender } from '@tuber/kit';
import type { FastifyBaseLogger } from 'fastify';
import type { OrderModels } from '../domain/models.js';
import { say } from '../mail/i18n/index.js';
import { judgeNewRequestMail, type MailBound } from '../mail/new-request-window.js';
import { sendOnce, sentBefore } from '../mail/once.js';

/** The SMS provider away: tried again for about ten minutes, then the alert is given up (the e-mail still went). */
const SMS_DELIVERY = { maxDeliver: 10, backoffMs: 10_000, maxBackoffMs: 60_000 };

export async function followSmsAlerts(
  bus: EventBus,
  deps: { models: OrderModels; sms: SmsSender; publicUrl: string; log: FastifyBaseLogger; redis: RedisClient; bound: MailBound },
): Promise<void> {
  const { models, sms, log } = deps;
  await bus.consume(OrderSent, { durable: 'orders-sms-sent', ...SMS_DELIVERY }, async (event) => {
    const contact = await models.Contact.findOne({ user_id: event.farmer_id }, { sms_to: 1, deleted: 1 }).lean();
    if (!contact?.sms_to || contact.deleted) return; // alerts off, or no verified number
    const key = `sms:${event.request_id}:${event.farmer_id}`;
    if (await sentBefore(models.Mail, key)) return;
    const doc = await models.Request.findOne({ request_id: event.request_id }, { buyer_name: 1 }).lean();
    if (!doc) return; // published by a test or another copy
    // The same verdict as the mail's (kept per request, never counted twice): held for the digest, no SMS.
    const verdict = await judgeNewRequestMail(deps.redis, deps.bound, event.farmer_id, event.request_id);
    if (verdict.kind === 'digest') {
      log.info({ key }, 'new request held for the digest: no SMS alert');
      return;
    }
    const known = await models.AccountLocale.findById(event.farmer_id).lean();
    const locale = localeOf(known?.locale) ?? DEFAULT_LOCALE;
    const link = `${deps.publicUrl.replace(/\/$/, '')}/dashboard/inbox`;
    const text = say(locale, 'sms_sent', { number: event.number, buyer: doc.buyer_name, link });
    const to = contact.sms_to;
    const sent = await sendOnce(models.Mail, key, { to, subject: 'sms' }, async () => {
      const out = await sms.send({ to, text });
      log.info({ key, provider: sms.provider, messageId: out.id, locale }, 'new-request SMS alert sent');
    }, log);
    if (!sent) log.debug({ key }, 'SMS alert sent before');
  });
}
