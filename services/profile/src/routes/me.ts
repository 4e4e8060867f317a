import { Type } from '@sinclair/typebox';
import { FarmerProfileChanged, ProfileCreated } from '@tuber/contracts';
import { badRequest, publishRecorded, notFound, pendingEvent, type EventBus, type ServiceApp } from '@tuber/kit';
import { draftFromClaims } from '../domain/claims.js';
import { findProfile, type ProfileModels } from '../domain/models.js';
import { presentProfile } from '../domain/phone-check.js';

const Session = Type.Object({
  user_id: Type.String(),
  email: Type.String(),
  email_verified: Type.Boolean(),
  roles: Type.Array(Type.String()),
  user_type: Type.Union([Type.Literal('buyer'), Type.Literal('farmer'), Type.Null()]),
});

export const Profile = Type.Object({
  user_id: Type.String(),
  user_type: Type.Union([Type.Literal('buyer'), Type.Literal('farmer')]),
  email: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  phone: Type.String(),
  business_name: Type.Optional(Type.String()),
  location: Type.Optional(Type.String()),
  tuber: Type.Optional(Type.Array(Type.String())),
  /** The phone number was proven by an SMS code (issue 26); a changed number is not verified until checked again. */
  phone_verified: Type.Boolean(),
  /** Farmers: new-request alerts by SMS too, to the verified number. */
  sms_alerts: Type.Optional(Type.Boolean()),
});

const Created = Type.Object({ created: Type.Boolean(), message: Type.String(), profile: Profile });

export const ACCOUNT_DELETED = 'This account has been deleted.';
export const EMAIL_NOT_VERIFIED = 'Verify your e-mail address before setting up your profile.';

const isDuplicateKey = (err: unknown) => (err as { code?: number }).code === 11000;

export function meRoutes(app: ServiceApp, deps: { models: ProfileModels; bus: EventBus }) {
  const { Buyer, Farmer } = deps.models;

  const findMine = async (userId: string) => {
    const mine = await findProfile(deps.models, userId);
    return mine && presentProfile(mine);
  };

  app.get(
    '/api/profile/session',
    {
      onRequest: app.authenticate,
      schema: { summary: 'Who the access token belongs to', security: [{ bearer: [] }], response: { 200: Session } },
    },
    async (request) => ({
      user_id: request.identity.userId,
      email: request.identity.email,
      email_verified: request.identity.emailVerified,
      roles: request.identity.roles,
      user_type: request.identity.userType ?? null,
    }),
  );

  app.get(
    '/api/profile/me',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'My buyer or farmer profile',
        security: [{ bearer: [] }],
        response: { 200: Profile, 404: Type.Ref('ErrorResponse') },
      },
    },
    async (request) => {
      const mine = await findMine(request.identity.userId);
      if (!mine) throw notFound('PROFILE_NOT_FOUND', 'No profile has been created for this account yet.');
      return mine;
    },
  );

  app.post(
    '/api/profile/me',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Create my profile from my account (idempotent)',
        description: 'Creates the buyer or farmer profile from the token claims once; afterwards answers 200 with created=false.',
        security: [{ bearer: [] }],
        response: { 200: Created, 201: Created, 400: Type.Ref('ErrorResponse') },
      },
    },
    async (request, reply) => {
      const { userId, email, emailVerified } = request.identity;
      const existing = await findMine(userId);
      if (existing) {
        // Already set up: still make sure the account's pending flag gets cleared.
        await deps.bus.publish(
          ProfileCreated,
          { user_id: userId, email, user_type: existing.user_type, created_at: new Date().toISOString() },
          `profile-created:${userId}`,
        );
        return { created: false, message: 'Your profile is already set up!', profile: existing };
      }
      // An address nobody has proven to own never goes into a profile (Keycloak does not issue
      // tokens before verification; this holds should that ever change).
      if (!emailVerified) throw badRequest('EMAIL_NOT_VERIFIED', EMAIL_NOT_VERIFIED);
      if (await deps.models.RemovedAccount.exists({ user_id: userId })) throw badRequest('ACCOUNT_DELETED', ACCOUNT_DELETED);
      const draft = draftFromClaims(userId, request.identity.claims);
      if ('problem' in draft) throw badRequest(draft.problem);

      const createdAt = new Date().toISOString();
      const outbox = [
        pendingEvent(
          ProfileCreated,
          { user_id: userId, email: draft.email, user_type: draft.user_type, created_at: createdAt },
          `profile-created:${userId}`,
        ),
      ];
      try {
        if (draft.user_type === 'farmer') {
          outbox.push(
            pendingEvent(
              FarmerProfileChanged,
              { farmer_id: userId, business_name: draft.business_name, location: draft.location, tuber: draft.tuber, revision: 1 },
              `farmer-changed:${userId}:1`,
            ),
          );
          await Farmer.create({ ...draft, revision: 1, outbox });
          await publishRecorded(Farmer, { user_id: userId }, deps.bus, request.log);
        } else {
          await Buyer.create({ ...draft, outbox });
          await publishRecorded(Buyer, { user_id: userId }, deps.bus, request.log);
        }
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        // A concurrent request created it first: same answer as "already set up".
        const winner = await findMine(userId);
        if (winner) return { created: false, message: 'Your profile is already set up!', profile: winner };
        throw err;
      }
      request.log.info({ userId, userType: draft.user_type }, 'profile created');
      const profile = await findMine(userId);
      return reply.code(201).send({ created: true, message: `Your ${draft.user_type} profile has been created!`, profile: profile! });
    },
  );
}
