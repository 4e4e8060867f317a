// Changing my profile. For a farmer, the change and its FarmerProfileChanged event (with the
// next revision) are one document update; the catalog copies the new name and place.
import { Type } from '@sinclair/typebox';
import { FarmerProfileChanged, TuberTypeSchema } from '@tuber/contracts';
import { conflict, publishRecorded, notFound, pendingEvent, type EventBus, type ServiceApp } from '@tuber/kit';
import type { ProfileModels } from '../domain/models.js';
import { Profile } from './me.js';

const line = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });

const ProfileChange = Type.Object(
  {
    firstname: Type.Optional(line(60)),
    lastname: Type.Optional(line(60)),
    phone: Type.Optional(Type.String({ minLength: 7, maxLength: 20, pattern: '^\\+?[0-9 ()-]{7,20}$' })),
    business_name: Type.Optional(line(120)),
    location: Type.Optional(line(200)),
    tuber: Type.Optional(Type.Array(TuberTypeSchema, { maxItems: 7, uniqueItems: true })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export function updateRoutes(app: ServiceApp, deps: { models: ProfileModels; bus: EventBus }) {
  const { Buyer, Farmer } = deps.models;

  app.patch(
    '/api/profile/me',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Change my profile',
        security: [{ bearer: [] }],
        body: ProfileChange,
        response: { 200: Profile, 400: Type.Ref('ErrorResponse'), 404: Type.Ref('ErrorResponse'), 409: Type.Ref('ErrorResponse') },
      },
    },
    async (request) => {
      const userId = request.identity.userId;
      const change = Object.fromEntries(Object.entries(request.body).map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v]));
      const farmer = await Farmer.findOne({ user_id: userId }).lean();
      if (farmer) {
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
        if (updated.modifiedCount === 0) throw conflict('Your profile changed at the same moment; reload and try again.');
        await publishRecorded(Farmer, { user_id: userId }, deps.bus, request.log);
        return { ...(await Farmer.findOne({ user_id: userId }).lean())!, user_type: 'farmer' as const };
      }
      const { business_name: _b, location: _l, tuber: _t, ...personal } = change;
      const buyer = await Buyer.findOneAndUpdate({ user_id: userId }, { $set: personal }, { new: true }).lean();
      if (!buyer) throw notFound('No profile has been created for this account yet.');
      return { ...buyer, user_type: 'buyer' as const };
    },
  );
}
