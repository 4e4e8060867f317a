// Changing my profile (issue 11). For a farmer, the change and its FarmerProfileChanged event (with
// the next revision) are one document update; the catalog copies the new name, place and tubers
// (it checks a new product's tuber type against them). A buyer has names and a phone only.
import { Type, type Static } from '@sinclair/typebox';
import { FarmerProfileChanged, TuberTypeSchema } from '@tuber/contracts';
import {
  badRequest,
  conflict,
  publishRecorded,
  notFound,
  problem,
  pendingEvent,
  withLocks,
  type EventBus,
  type RedisClient,
  type ServiceApp,
} from '@tuber/kit';
import type { FastifyBaseLogger } from 'fastify';
import type { ProfileModels } from '../domain/models.js';
import { alertsEvent, alertsTarget, isVerified, presentProfile } from '../domain/phone-check.js';
import { changedFields, changeProblem, normaliseChange, PHONE_PATTERN, type FieldError } from '../domain/profile-change.js';
import { profileBusy, profileLockKey } from '../domain/profile-lock.js';
import { Profile } from './me.js';

const line = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });

const ProfileChange = Type.Object(
  {
    firstname: Type.Optional(line(60)),
    lastname: Type.Optional(line(60)),
    phone: Type.Optional(
      Type.String({
        minLength: 7,
        maxLength: 20,
        pattern: PHONE_PATTERN,
        description: 'A Nigerian number in any usual form (0803 123 4567, +234 803 123 4567); stored in E.164 digits (2348031234567)',
      }),
    ),
    business_name: Type.Optional(line(120)),
    location: Type.Optional(line(200)),
    tuber: Type.Optional(Type.Array(TuberTypeSchema, { maxItems: 7, uniqueItems: true, description: 'may be empty' })),
    sms_alerts: Type.Optional(
      Type.Boolean({ description: 'Farmers: new-request alerts by SMS too. Switching them on needs a verified phone (400 SMS_ALERTS_NEED_VERIFIED_PHONE).' }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description:
      'Only the fields to change. A buyer may send firstname, lastname and phone; e-mail changes go through Keycloak. A new phone number is not verified until an SMS code confirms it.',
  },
);

export function updateRoutes(app: ServiceApp, deps: { models: ProfileModels; bus: EventBus; redis: RedisClient }) {
  const { Buyer, Farmer } = deps.models;

  app.patch(
    '/api/profile/me',
    {
      onRequest: app.authenticate,
      // Validation errors reach the handler, which words them for the profile form.
      attachValidation: true,
      schema: {
        summary: 'Change my profile',
        security: [{ bearer: [] }],
        body: ProfileChange,
        response: {
          200: Profile,
          400: Type.Ref('ErrorResponse'),
          401: Type.Ref('ErrorResponse'),
          404: Type.Ref('ErrorResponse'),
          409: Type.Ref('ErrorResponse'),
        },
      },
    },
    async (request) => {
      const invalid = request.validationError as (Error & { validation?: FieldError[] }) | undefined;
      if (invalid) {
        const first = invalid.validation?.[0];
        throw badRequest(first ? changeProblem(first) : problem('VALIDATION_FAILED', invalid.message));
      }
      const userId = request.identity.userId;
      // The read, the check and the write under the profile's lock (domain/profile-lock.ts): the
      // outbox relay of another replica may be taking the last event out of the same document.
      return withLocks(deps.redis, [profileLockKey(userId)], () => change(userId, request.body, request.log), {
        busy: profileBusy,
      });
    },
  );

  /** What a phone change clears: the number's verification and any code sent to the old one (issue 26). */
  const UNVERIFY = { verified_phone: 1, phone_verified_at: 1, phone_check: 1 } as const;
  const ALERTS_NEED_VERIFIED = () =>
    badRequest('SMS_ALERTS_NEED_VERIFIED_PHONE', 'SMS alerts go to a verified phone number: verify your number first, then switch them on.');

  async function change(userId: string, body: Static<typeof ProfileChange>, log: FastifyBaseLogger) {
    const farmer = await Farmer.findOne({ user_id: userId }).lean();
    if (farmer) {
      const checked = normaliseChange(body, 'farmer');
      if ('problem' in checked) throw badRequest(checked.problem);
      const change = changedFields(checked.change, farmer);
      // Nothing differs: no new revision, no event.
      if (Object.keys(change).length === 0) return presentProfile({ ...farmer, user_type: 'farmer' as const });
      const next = { ...farmer, ...change, ...(change.phone !== undefined ? { verified_phone: undefined } : {}) };
      if (change.sms_alerts === true && !isVerified(next)) throw ALERTS_NEED_VERIFIED();
      const farmChanged = Object.keys(change).some((field) => field !== 'sms_alerts');
      const revision = farmChanged ? farmer.revision + 1 : farmer.revision;
      const outbox = [];
      if (farmChanged) {
        outbox.push(
          pendingEvent(
            FarmerProfileChanged,
            { farmer_id: userId, business_name: next.business_name, location: next.location, tuber: next.tuber as never, revision },
            `farmer-changed:${userId}:${revision}`,
          ),
        );
      }
      // Where the new-request SMS alerts go (the orders service sends them): told when it changes.
      const alertsRevision = (farmer.alerts_revision ?? 0) + 1;
      const alertsMove = alertsTarget(next) !== alertsTarget(farmer);
      if (alertsMove) outbox.push(alertsEvent(userId, alertsTarget(next), alertsRevision));
      // Conditional on the revision read: a concurrent change makes this one match nothing.
      const updated = await Farmer.updateOne(
        { user_id: userId, revision: farmer.revision },
        {
          $set: { ...change, revision, ...(alertsMove ? { alerts_revision: alertsRevision } : {}) },
          ...(outbox.length ? { $push: { outbox: { $each: outbox } } } : {}),
          ...(change.phone !== undefined ? { $unset: UNVERIFY } : {}),
        },
      );
      if (updated.modifiedCount === 0) throw conflict('PROFILE_CHANGED_MEANWHILE', 'Your profile changed at the same moment; reload and try again.');
      await publishRecorded(Farmer, { user_id: userId }, deps.bus, log);
      log.info({ userId, fields: Object.keys(change), revision, alertsMove }, 'farmer profile changed');
      return presentProfile({ ...(await Farmer.findOne({ user_id: userId }).lean())!, user_type: 'farmer' as const });
    }
    const buyer = await Buyer.findOne({ user_id: userId }).lean();
    if (!buyer) throw notFound('PROFILE_NOT_FOUND', 'No profile has been created for this account yet.');
    const checked = normaliseChange(body, 'buyer');
    if ('problem' in checked) throw badRequest(checked.problem);
    const change = changedFields(checked.change, buyer);
    if (Object.keys(change).length === 0) return presentProfile({ ...buyer, user_type: 'buyer' as const });
    const updated = await Buyer.findOneAndUpdate(
      { user_id: userId },
      { $set: change, ...(change.phone !== undefined ? { $unset: UNVERIFY } : {}) },
      { new: true },
    ).lean();
    if (!updated) throw notFound('PROFILE_NOT_FOUND', 'No profile has been created for this account yet.');
    return presentProfile({ ...updated, user_type: 'buyer' as const });
  }
}
