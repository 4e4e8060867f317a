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
import { changedFields, changeProblem, normaliseChange, PHONE_PATTERN, type FieldError } from '../domain/profile-change.js';
import { profileLockKey } from '../domain/profile-lock.js';
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
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'Only the fields to change. A buyer may send firstname, lastname and phone; e-mail changes go through Keycloak.',
  },
);

const BUSY_MESSAGE = 'Your profile is being saved from another tab or device; wait a moment and try again.';

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
        response: { 200: Profile, 400: Type.Ref('ErrorResponse'), 404: Type.Ref('ErrorResponse'), 409: Type.Ref('ErrorResponse') },
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
        busy: () => conflict('PROFILE_BUSY', BUSY_MESSAGE),
      });
    },
  );

  async function change(userId: string, body: Static<typeof ProfileChange>, log: FastifyBaseLogger) {
    const farmer = await Farmer.findOne({ user_id: userId }).lean();
    if (farmer) {
      const checked = normaliseChange(body, 'farmer');
      if ('problem' in checked) throw badRequest(checked.problem);
      const change = changedFields(checked.change, farmer);
      // Nothing differs: no new revision, no event.
      if (Object.keys(change).length === 0) return { ...farmer, user_type: 'farmer' as const };
      const revision = farmer.revision + 1;
      const next = { ...farmer, ...change };
      const event = pendingEvent(
        FarmerProfileChanged,
        { farmer_id: userId, business_name: next.business_name, location: next.location, tuber: next.tuber as never, revision },
        `farmer-changed:${userId}:${revision}`,
      );
      // Conditional on the revision read: a concurrent change makes this one match nothing.
      const updated = await Farmer.updateOne(
        { user_id: userId, revision: farmer.revision },
        { $set: { ...change, revision }, $push: { outbox: event } },
      );
      if (updated.modifiedCount === 0) throw conflict('PROFILE_CHANGED_MEANWHILE', 'Your profile changed at the same moment; reload and try again.');
      await publishRecorded(Farmer, { user_id: userId }, deps.bus, log);
      log.info({ userId, fields: Object.keys(change), revision }, 'farmer profile changed');
      return { ...(await Farmer.findOne({ user_id: userId }).lean())!, user_type: 'farmer' as const };
    }
    const buyer = await Buyer.findOne({ user_id: userId }).lean();
    if (!buyer) throw notFound('PROFILE_NOT_FOUND', 'No profile has been created for this account yet.');
    const checked = normaliseChange(body, 'buyer');
    if ('problem' in checked) throw badRequest(checked.problem);
    const change = changedFields(checked.change, buyer);
    if (Object.keys(change).length === 0) return { ...buyer, user_type: 'buyer' as const };
    const updated = await Buyer.findOneAndUpdate({ user_id: userId }, { $set: change }, { new: true }).lean();
    if (!updated) throw notFound('PROFILE_NOT_FOUND', 'No profile has been created for this account yet.');
    return { ...updated, user_type: 'buyer' as const };
  }
}
