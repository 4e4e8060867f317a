import {
  createServiceApp,
  useAuth,
  useEventBus,
  useMongo,
  useOutboxRelay,
  useRateLimits,
  useRedis,
  type ServiceApp,
  type SmsSender,
  smsSender,
  useSessionRevocation,
} from '@tuber/kit';
import { requestDocumentLock } from './domain/locks.js';
import type { OrdersConfig } from './config.js';
import { orderModels, renumberDuplicates } from './domain/models.js';
import { productModel } from './domain/products.js';
import { followNotifications } from './events/notifications.js';
import { followContacts, followProducts } from './events/projections.js';
import { useInsights } from './insights/index.js';
import { sweepDigests } from './mail/digest.js';
import { smtpMailer, type Mailer } from './mail/mailer.js';
import { followSmsAlerts } from './events/sms-alerts.js';
import { followModeration } from './events/moderation.js';
import { blockedBuyerRoutes } from './routes/blocked-buyers.js';
import { requestRoutes } from './routes/requests.js';
import { ratingDocumentLock, reviewModels } from './reviews/model.js';
import { ratingCounter } from './reviews/rating.js';
import { reviewRoutes } from './reviews/routes.js';
import type { UnreadStreamDeps } from './routes/unread-stream.js';

export interface BuildOptions {
  /**
   * Start the durable event consumers and the outbox relay (default). Off for an in-process copy
   * (tests): it would share the running service's durable consumers and take its events.
   */
  events?: boolean;
  /** Another mailer (tests); default SMTP from the configuration. */
  mailer?: Mailer;
  /** Another SMS sender (tests); default the provider the configuration names. */
  sms?: SmsSender;
  /** Other bounds for the live unread streams (tests). */
  streamLimits?: UnreadStreamDeps['limits'];
}

export async function buildApp(config: OrdersConfig, options: BuildOptions = {}): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'orders',
    logLevel: config.LOG_LEVEL,
    trustedProxies: config.TRUSTED_PROXIES,
    description: 'Order requests between buyers and farmers',
  });
  await useAuth(app, config);
  const mongo = await useMongo(app, config.MONGO_URL);
  const bus = await useEventBus(app, config.NATS_URL, 'orders');
  const redis = await useRedis(app, config.REDIS_URL);
  // Tokens of ended sign-ins are refused on every route (issue 24, docs/adr/0056).
  useSessionRevocation(app, redis);
  // Per-buyer limit on sending requests, counted in Redis (refused while it is away).
  await useRateLimits(app, { redis, nameSpace: 'orders:rate:' });
  const products = productModel(mongo);
  const models = orderModels(mongo);
  const reviews = reviewModels(mongo);
  const recount = ratingCounter({ reviews, bus, redis });
  const renumbered = await renumberDuplicates(models, redis);
  if (renumbered.length) app.log.warn({ renumbered }, 'requests that shared a number were given new ones');
  await Promise.all([
    products.init(),
    models.Request.init(),
    models.Contact.init(),
    models.Mail.init(),
    models.DigestEntry.init(),
    models.BlockedBuyer.init(),
    reviews.Review.init(),
    reviews.FarmerRating.init(),
  ]);
  if (options.events !== false) {
    // Events written with a request but not yet out (a bus outage, a crash) go out later.
    // The outbox takes published events out of a request under the request's lock, like every other write of it.
    await useOutboxRelay(app, bus, [
      { model: models.Request, key: 'request_id', lock: requestDocumentLock(redis) },
      // A farmer's rating summary carries the FarmerRatingChanged event the catalog copies onto the cards (issue 26).
      { model: reviews.FarmerRating, key: 'farmer_id', lock: ratingDocumentLock(redis) },
    ]);
    await followProducts(bus, products, models, app.log);
    await followContacts(bus, models, redis);
    // Moderators' decisions (issue 26, docs/adr/0071): hidden listings not requestable, suspended accounts' open requests cancelled.
    await followModeration(bus, { models, products, redis, log: app.log, reviews: { models: reviews, recount } });
    const mailer = options.mailer ?? smtpMailer({ host: config.SMTP_HOST, port: config.SMTP_PORT, from: config.MAIL_FROM });
    // New-request mails to a farmer: a few single ones per window, then one digest (issue 24, docs/adr/0060).
    const bound = { perWindow: config.REQUEST_MAILS_PER_WINDOW, windowMs: config.REQUEST_MAIL_WINDOW_S * 1000 };
    await followNotifications(bus, { models, mailer, publicUrl: config.PUBLIC_URL, log: app.log, redis, bound });
    // New-request alerts by SMS too, for farmers who switched them on (issue 26, docs/adr/0070).
    const sms = options.sms ?? smsSender(config);
    if (sms) await followSmsAlerts(bus, { models, sms, publicUrl: config.PUBLIC_URL, log: app.log, redis, bound });
    else app.log.warn('SMS_API_URL is empty: no new-request SMS alerts are sent');
    sweepDigests(redis, { models, mailer, publicUrl: config.PUBLIC_URL, windowMs: bound.windowMs, log: app.log }, (stop) =>
      app.addHook('onClose', stop),
    );
  }
  requestRoutes(app, { models, reviews, products, bus, redis, ...(options.streamLimits ? { streamLimits: options.streamLimits } : {}) });
  blockedBuyerRoutes(app, { models });
  reviewRoutes(app, { models, reviews, redis, recount });
  // Without events (an in-process copy), insights take no events either.
  await useInsights(app, { mongo, redis, products, ...(options.events !== false ? { bus } : {}) });
  return app;
}
