// E-mail notifications (issue 12): durable consumers of the orders service's own events mail the
// farmer on a new request, the buyer on accept/decline/fulfil and the other party on a cancel.
// At least once (the event is redelivered until the mail is out), never twice for one transition:
// a mail record `<request_id>:<revision>:<recipient>` is claimed before sending and marked sent
// after; a redelivery finds it sent and stops (ADR 0031 says where this can still fail).
// New-request mails to one farmer are bounded (issue 24, docs/adr/0060): past the first few of a window,
// a request is held for one digest at the window's end (mail/new-request-window.ts, mail/digest.ts).
import {
  DEFAULT_LOCALE,
  OrderAccepted,
  OrderCancelled,
  OrderDeclined,
  OrderFulfilled,
  OrderSent,
  localeOf,
  type EventPayload,
} from '@tuber/contracts';
import type { ConsumeOptions, EventBus, RedisClient } from '@tuber/kit';
import type { FastifyBaseLogger } from 'fastify';
import type { OrderModels, RequestDoc } from '../domain/models.js';
import { holdForDigest } from '../mail/digest.js';
import type { Mailer } from '../mail/mailer.js';
import { notificationMail, type MailKind } from '../mail/messages.js';
import { judgeNewRequestMail, type MailBound } from '../mail/new-request-window.js';
import { sendOnce, sentBefore } from '../mail/once.js';


/** Waiting for a farmer's address (their profile event not here yet): retried for about half an hour. */
const MAIL_DELIVERY: Omit<ConsumeOptions, 'durable'> = { maxDeliver: 30, backoffMs: 5_000, maxBackoffMs: 60_000 };

type AnyOrderEvent = EventPayload<typeof OrderSent> & { reason?: string; by?: 'buyer' | 'farmer' };

export async function followNotifications(
  bus: EventBus,
  deps: { models: OrderModels; mailer: Mailer; publicUrl: string; log: FastifyBaseLogger; redis: RedisClient; bound: MailBound },
): Promise<void> {
  const { models, mailer, publicUrl, log, redis, bound } = deps;
  const { Request, Contact, Mail } = models;

  async function notify(kind: MailKind, event: AnyOrderEvent): Promise<void> {
    const doc = await Request.findOne({ request_id: event.request_id }, { outbox: 0 }).lean<RequestDoc>();
    if (!doc) {
      log.info(
        { requestId: event.request_id },
        'order event for a request that is not here (published by a test or another copy); no mail',
      );
      return;
    }
    const to: 'buyer' | 'farmer' = kind === 'sent' || (kind === 'cancelled' && event.by === 'buyer') ? 'farmer' : 'buyer';
    const recipientId = to === 'farmer' ? event.farmer_id : event.buyer_id;
    const key = `${event.request_id}:${event.revision}:${recipientId}`;
    if (await sentBefore(Mail, key)) return;

    const contact = await Contact.findOne({ user_id: recipientId }).lean();
    if (contact?.deleted) {
      log.info({ key, to }, 'recipient account deleted; no mail');
      return;
    }
    if (!contact?.email) {
      log.warn(
        { key, to, recipientId },
        `the ${to}'s e-mail address is not known yet (their profile event has not arrived); the mail is retried later`,
      );
      throw new Error(`e-mail address of ${to} ${recipientId} not known yet`);
    }
    if (kind === 'sent') {
      // A farmer's inbox is theirs (issue 24): past the window's bound, the request waits for the digest.
      const verdict = await judgeNewRequestMail(redis, bound, event.farmer_id, event.request_id);
      if (verdict.kind === 'digest') {
        await holdForDigest(models, {
          requestId: event.request_id,
          farmerId: event.farmer_id,
          number: event.number,
          buyerName: doc.buyer_name,
          productNames: doc.lines.map((line) => line.product_name),
          receivedAt: new Date(doc.created_at),
          dueAt: verdict.dueAt,
        });
        log.info({ key, number: event.number, dueAt: verdict.dueAt }, 'new request held for the farmer’s digest (over the mail bound)');
        return;
      }
    }
    const farmerContact = to === 'farmer' ? contact : await Contact.findOne({ user_id: event.farmer_id }, { business_name: 1 }).lean();
    // The recipient's language (issue 13): their account's newest known locale, else the buyer's when sending, else English.
    const known = await models.AccountLocale.findById(recipientId).lean();
    const locale = localeOf(known?.locale) ?? (to === 'buyer' ? localeOf(doc.buyer_locale) : undefined) ?? DEFAULT_LOCALE;
    const names = new Map(doc.lines.map((line) => [line.product_id, line.product_name]));
    const mail = notificationMail({
      kind,
      number: event.number,
      to,
      buyerName: doc.buyer_name,
      businessName: doc.business_name || farmerContact?.business_name || '',
      lines: event.lines.map((line) => ({
        name: names.get(line.product_id) ?? 'A product',
        quantity: line.quantity,
        unit: line.unit,
        price_kobo: line.price_kobo,
      })),
      reason: event.reason,
      by: event.by,
      fulfilment: doc.fulfilment,
      preferredDate: doc.preferred_date,
      publicUrl,
      locale,
      recipientName: to === 'buyer' ? doc.buyer_name : doc.business_name || farmerContact?.business_name || undefined,
      // The other party's number where the next step is to talk (issue 25): the buyer's with a new request, the farmer's once accepted.
      contactPhone: to === 'farmer' ? doc.buyer_phone : (doc as { farmer_phone?: string | null }).farmer_phone ?? undefined,
    });

    // Claim it: only one sender at a time, and a sent one is never sent again.
    const sent = await sendOnce(Mail, key, { to: contact.email, subject: mail.subject }, () =>
      mailer.send({ to: contact.email!, subject: mail.subject, text: mail.text, html: mail.html }), log);
    if (!sent) return;
    log.info({ key, to, kind, number: event.number, locale }, 'order notification mailed');
  }

  await bus.consume(OrderSent, { durable: 'orders-mail-sent', ...MAIL_DELIVERY }, (event) => notify('sent', event));
  await bus.consume(OrderAccepted, { durable: 'orders-mail-accepted', ...MAIL_DELIVERY }, (event) => notify('accepted', event));
  await bus.consume(OrderDeclined, { durable: 'orders-mail-declined', ...MAIL_DELIVERY }, (event) => notify('declined', event));
  await bus.consume(OrderFulfilled, { durable: 'orders-mail-fulfilled', ...MAIL_DELIVERY }, (event) => notify('fulfilled', event));
  await bus.consume(OrderCancelled, { durable: 'orders-mail-cancelled', ...MAIL_DELIVERY }, (event) => notify('cancelled', event));
}
