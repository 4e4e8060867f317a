// Verifying my phone number by SMS (issue 26, docs/adr/0070). A code goes to the profile's number; the code sent
// back marks that number verified. Changing the number (PATCH /api/profile/me) clears it.
// Limits: one code a minute per account, five a day per account and per number (an SMS costs money, and a
// number is not ours to flood), ten minutes per code, five tries per code.
import { Type } from '@sinclair/typebox';
import {
  DEFAULT_LOCALE,
  PHONE_CODE_TTL_MINUTES,
  PHONE_CODES_PER_DAY,
  PhoneCodeInput,
  PhoneCodeRequest,
  PhoneCodeSent,
  PHONE_E164_PROBLEM,
  localeOf,
  nigerianE164,
} from '@tuber/contracts';
import {
  HttpError,
  SmsFailed,
  badRequest,
  conflict,
  notFound,
  problem,
  publishRecorded,
  unavailable,
  withLocks,
  type EventBus,
  type RedisClient,
  type ServiceApp,
  type SmsSender,
} from '@tuber/kit';
import { findProfile, type ProfileModels } from '../domain/models.js';
import { alertsEvent, alertsTarget, checkFor, codeSms, judgeCode, isVerified, newCode, presentProfile, resendWait } from '../domain/phone-check.js';
import { profileBusy, profileLockKey } from '../domain/profile-lock.js';
import { Profile } from './me.js';

const NO_PROFILE = () => notFound('PROFILE_NOT_FOUND', 'No profile has been created for this account yet.');
const ALREADY = () => conflict('PHONE_ALREADY_VERIFIED', 'This phone number is verified already.');
const SMS_DOWN = () =>
  unavailable('SMS_UNAVAILABLE', 'The text message could not be sent just now. Nothing was used up: try again in a minute.', 60);

const DAY_SECONDS = 86_400;
/** Redis keys of the day's code count for an account and for a number (UTC days). */
const dayKeys = (userId: string, phone: string, now: Date) => {
  const day = now.toISOString().slice(0, 10);
  return [`profile:sms-codes:account:${userId}:${day}`, `profile:sms-codes:number:${phone}:${day}`];
};

const errors = {
  400: Type.Ref('ErrorResponse'),
  401: Type.Ref('ErrorResponse'),
  404: Type.Ref('ErrorResponse'),
  409: Type.Ref('ErrorResponse'),
  429: Type.Ref('ErrorResponse'),
  503: Type.Ref('ErrorResponse'),
};

export function phoneRoutes(app: ServiceApp, deps: { models: ProfileModels; bus: EventBus; redis: RedisClient; sms: SmsSender | undefined }) {
  const { models, redis } = deps;
  // The fields written here are the same in both (models.ts `person`): one model's type serves for both.
  const modelOf = (userType: 'buyer' | 'farmer') => (userType === 'farmer' ? models.Farmer : models.Buyer) as unknown as typeof models.Farmer;

  app.post(
    '/api/profile/me/phone/code',
    {
      onRequest: app.authenticate,
      // No body at all is taken as `{}` (clients before the locale field send none).
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        summary: 'Send a 6-digit code by SMS to my profile’s phone number',
        description: `At most one a minute (429 PHONE_CODE_WAIT) and ${PHONE_CODES_PER_DAY} a day per account and per number (429 PHONE_CODES_TODAY). The code is good for ${PHONE_CODE_TTL_MINUTES} minutes; a new one replaces the old. 503 SMS_UNAVAILABLE when the SMS provider does not take it.`,
        security: [{ bearer: [] }],
        body: PhoneCodeRequest,
        response: { 202: PhoneCodeSent, ...errors },
      },
    },
    async (request, reply) => {
      const userId = request.identity.userId;
      const now = new Date();
      const code = newCode();
      // Checked and written under the profile's lock; the SMS goes out after it, so a slow provider holds no lock.
      const reserved = await withLocks(
        redis,
        [profileLockKey(userId)],
        async () => {
          const mine = await findProfile(models, userId);
          if (!mine) throw NO_PROFILE();
          if (isVerified(mine)) throw ALREADY();
          const wait = resendWait(mine.phone_check, now);
          if (wait > 0) {
            throw new HttpError(429, problem('PHONE_CODE_WAIT', `A code was sent a moment ago. You can ask for another in ${wait} seconds.`, { seconds: wait }), {
              'retry-after': String(wait),
            });
          }
          // A number kept as typed at sign-up (before issue 12's E.164) is sent to in E.164, and counted so.
          const to = nigerianE164(mine.phone);
          if (!to) throw badRequest('PHONE_INVALID', `Your profile's phone number cannot receive our SMS. ${PHONE_E164_PROBLEM}`);
          const keys = dayKeys(userId, to, now);
          const counts = await redis.mGet(keys);
          if (counts.some((count) => Number(count ?? 0) >= PHONE_CODES_PER_DAY)) {
            throw new HttpError(
              429,
              problem('PHONE_CODES_TODAY', `${PHONE_CODES_PER_DAY} codes have been sent today. Try again tomorrow.`, { max: PHONE_CODES_PER_DAY }),
              { 'retry-after': String(DAY_SECONDS - Math.floor((now.getTime() % (DAY_SECONDS * 1000)) / 1000)) },
            );
          }
          const check = checkFor(userId, mine.phone, code, now);
          await modelOf(mine.user_type).updateOne({ user_id: userId }, { $set: { phone_check: check } });
          return { check, keys, to, previous: mine.phone_check ?? null, userType: mine.user_type };
        },
        { busy: profileBusy },
      );
      const { check, keys, to } = reserved;
      const locale = localeOf(request.body.locale) ?? localeOf(request.identity.claims.locale) ?? DEFAULT_LOCALE;
      try {
        if (!deps.sms) throw new SmsFailed('no SMS provider is configured (SMS_API_URL is empty)');
        const sent = await deps.sms.send({ to, text: codeSms(locale, code) });
        request.log.info({ userId, provider: deps.sms.provider, messageId: sent.id, locale }, 'phone code sent by SMS');
      } catch (err) {
        request.log.warn({ userId, err: (err as Error).message, status: (err as SmsFailed).status }, 'phone code not sent: the SMS provider did not take it');
        // Not sent: this code must not hold the minute's wait. Put back what was there, unless a newer code came meanwhile.
        await withLocks(
          redis,
          [profileLockKey(userId)],
          () =>
            modelOf(reserved.userType).updateOne(
              { user_id: userId, 'phone_check.code_hash': check.code_hash },
              reserved.previous ? { $set: { phone_check: reserved.previous } } : { $unset: { phone_check: 1 } },
            ),
          { busy: profileBusy },
        ).catch((undo: unknown) => request.log.error({ userId, err: undo }, 'could not take back an unsent phone code; the next may wait a minute'));
        throw SMS_DOWN();
      }
      const multi = redis.multi();
      for (const key of keys) multi.incr(key).expire(key, 2 * DAY_SECONDS);
      await multi.exec();
      return reply.code(202).send({
        phone: to,
        expires_at: check.expires_at.toISOString(),
        resend_at: new Date(check.sent_at.getTime() + resendWait(check, check.sent_at) * 1000).toISOString(),
        tries: check.tries_left,
      });
    },
  );

  app.post(
    '/api/profile/me/phone/verify',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Send back the SMS code: my phone number becomes verified',
        description: `400 PHONE_CODE_WRONG with the tries left; 429 PHONE_CODE_TRIES once all are used; 409 PHONE_CODE_NONE when no code waits (none sent, or older than ${PHONE_CODE_TTL_MINUTES} minutes), PHONE_CHANGED_SINCE_CODE, PHONE_ALREADY_VERIFIED.`,
        security: [{ bearer: [] }],
        body: PhoneCodeInput,
        response: { 200: Profile, ...errors },
      },
    },
    async (request) => {
      const userId = request.identity.userId;
      return withLocks(
        redis,
        [profileLockKey(userId)],
        async () => {
          const mine = await findProfile(models, userId);
          if (!mine) throw NO_PROFILE();
          const model = modelOf(mine.user_type);
          const now = new Date();
          const verdict = judgeCode(mine, request.body.code, now);
          switch (verdict.kind) {
            case 'already':
              throw ALREADY();
            case 'none':
              throw conflict('PHONE_CODE_NONE', `No code is waiting: codes last ${PHONE_CODE_TTL_MINUTES} minutes. Ask for a new one.`, {
                minutes: PHONE_CODE_TTL_MINUTES,
              });
            case 'phone-changed':
              throw conflict('PHONE_CHANGED_SINCE_CODE', 'Your phone number changed after the code was sent. Ask for a code to the new number.');
            case 'spent':
              throw new HttpError(429, problem('PHONE_CODE_TRIES', 'This code has had all its tries. Ask for a new one.'));
            case 'wrong':
              await model.updateOne({ user_id: userId }, { $set: { 'phone_check.tries_left': verdict.left } });
              request.log.info({ userId, left: verdict.left }, 'wrong phone code');
              if (verdict.left === 0) throw new HttpError(429, problem('PHONE_CODE_TRIES', 'That was the last try for this code. Ask for a new one.'));
              throw badRequest('PHONE_CODE_WRONG', `That is not the code we sent. ${verdict.left} tries left.`, { left: verdict.left });
            case 'verified':
              break;
          }
          const set: Record<string, unknown> = { verified_phone: mine.phone, phone_verified_at: now };
          const update: Record<string, unknown> = { $set: set, $unset: { phone_check: 1 } };
          // A farmer with the alerts on: they go to this number from now on.
          const after = { ...mine, verified_phone: mine.phone };
          if (mine.user_type === 'farmer' && alertsTarget(after) !== alertsTarget(mine)) {
            const revision = (mine.alerts_revision ?? 0) + 1;
            set.alerts_revision = revision;
            update.$push = { outbox: alertsEvent(userId, alertsTarget(after), revision) };
          }
          await model.updateOne({ user_id: userId }, update);
          // Inside the lock, as every writer of the document (the relay takes it too: domain/profile-lock.ts).
          await publishRecorded(model, { user_id: userId }, deps.bus, request.log);
          request.log.info({ userId, userType: mine.user_type }, 'phone number verified');
          return presentProfile((await findProfile(models, userId)) ?? mine);
        },
        { busy: profileBusy },
      );
    },
  );
}
