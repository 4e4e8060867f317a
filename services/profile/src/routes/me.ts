import { Type } from '@sinclair/typebox';
import { notFound, type ServiceApp } from '@tuber/kit';
import type { ProfileModels } from '../domain/models.js';

const Session = Type.Object({
  user_id: Type.String(),
  email: Type.String(),
  email_verified: Type.Boolean(),
  roles: Type.Array(Type.String()),
  user_type: Type.Union([Type.Literal('buyer'), Type.Literal('farmer'), Type.Null()]),
});

const Profile = Type.Object({
  user_type: Type.Union([Type.Literal('buyer'), Type.Literal('farmer')]),
  email: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  phone: Type.String(),
  business_name: Type.Optional(Type.String()),
  location: Type.Optional(Type.String()),
  tuber: Type.Optional(Type.Array(Type.String())),
});

export function meRoutes(app: ServiceApp, models: ProfileModels) {
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
      schema: { summary: 'My buyer or farmer profile', security: [{ bearer: [] }], response: { 200: Profile, 404: Type.Ref('ErrorResponse') } },
    },
    async (request) => {
      const { userId } = request.identity;
      const buyer = await models.Buyer.findOne({ user_id: userId }).lean();
      if (buyer) return { ...buyer, user_type: 'buyer' as const };
      const farmer = await models.Farmer.findOne({ user_id: userId }).lean();
      if (farmer) return { ...farmer, user_type: 'farmer' as const };
      throw notFound('No profile has been created for this account yet.');
    },
  );
}
