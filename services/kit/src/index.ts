export { ANSWERS, createServiceApp, type ServiceApp, type ServiceAppOptions } from './app.js';
export { BaseConfig, portConfig, OidcConfig, NatsConfig, RedisConfig, mongoConfig, configSchema, loadConfig } from './config.js';
export {
  HttpError,
  badRequest,
  unauthorized,
  forbidden,
  notFound,
  conflict,
  unavailable,
  errorBody,
  sendProblem,
  problem,
  validationProblem,
  fieldProblemOf,
  unavailableDependency,
  type Problem,
  type SchemaError,
} from './errors.js';
export { Readiness, type ReadinessCheck } from './readiness.js';
export { brandedHtml, brandedText, escapeHtml, waLink, type BrandedMail, type MailContact } from './mail.js';
export { auth, identityFromClaims, SIGN_IN_ENDED, type AuthOptions, type Identity, type RealmRole, type Role } from './plugins/auth.js';
export {
  EventBus,
  BusUnavailableError,
  DEAD_LETTER_STREAM,
  DEAD_LETTER_SUBJECTS,
  DeadLetterHeader,
  REDRIVE_OF_HEADER,
  PUBLISH_TIMEOUT_MS,
  deadLetterSubject,
  retryDelay,
  type ConsumeOptions,
  type EventContext,
  type EventHandler,
  type PublishOptions,
} from './events.js';
export { listDeadLetters, redrive, type DeadLetter, type RedriveResult } from './redrive.js';
export {
  connectMongo,
  pingMongo,
  connectRedis,
  closeRedis,
  redisReconnectDelay,
  type RedisClient,
  type RedisConnectOptions,
} from './stores.js';
export { natsServer, redactUrl } from './credentials.js';
export { runService } from './run.js';
export { useMongo, useRedis, useEventBus, useAuth, useSessionRevocation, httpCheck } from './wiring.js';
export { RevokedSessions, REVOKED_SESSION_PREFIX, REVOKED_SESSION_TTL_SECONDS } from './revoked-sessions.js';
export { startService } from './main.js';
export {
  OutboxField,
  pendingEvent,
  flushOutbox,
  flushAllOutboxes,
  publishRecorded,
  outboxNeedsSweep,
  useOutboxRelay,
  lockOutboxWrites,
  withDocumentLock,
  INLINE_PUBLISH_TIMEOUT_MS,
  type DocumentLock,
  type OutboxSource,
  type PendingEvent,
} from './outbox.js';
export { findByValues, MAX_LOOKUP_VALUES } from './lookups.js';
export { withLocks, tryLock, redisDocumentLock, LOCK_TTL_MS, type LockOptions } from './locks.js';
export { everyUnderLease, withLease, type LeaseOptions, type LeaseOutcome } from './lease.js';
export { useRateLimits, strictLimit, clientKey, LIMITS_UNAVAILABLE, type RateLimitsOptions, type UserLimit } from './plugins/limits.js';
export { RealmKeys, type RealmKeysOptions } from './plugins/realm-keys.js';
export { observeGauge, serviceCounter, type GaugeSample } from './observe.js';
export { SmsConfig, SmsFailed, TermiiSender, smsSender, smsParts, type SmsMessage, type SmsSender } from './sms.js';
export { now, simulatedClock, CLOCK_FILE_READ_MS } from './clock.js';
