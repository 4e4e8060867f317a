import { Type } from '@sinclair/typebox';
import { FarmerPublic } from '@tuber/contracts';
import { notFound, type ServiceApp } from '@tuber/kit';
import type { ProfileModels } from '../domain/models.js';
import { isVerified } from '../domain/phone-check.js';

const FarmerContact = Type.Object({
  farmer_id: Type.String(),
  business_name: Type.String(),
  location: Type.String(),
  phone: Type.String(),
  email: Type.String(),
  tuber: Type.Array(Type.String()),
  /** The phone number was proven by an SMS code (issue 26). */
  phone_verified: Type.Optional(Type.Boolean()),
});

/**
 * Contact cards (phone and e-mail) one signed-in user may read in a window: plenty for a buyer
 * contacting farmers by hand, too few to harvest every farmer's details with one account.
 */
export const CONTACT_READ_LIMIT = { max: 30, windowSeconds: 600 };

/** A farmer's public contact card, for signed-in users (the Contact Farmer modal). */
export function farmerRoutes(app: ServiceApp, models: ProfileModels) {
  const FarmerParams = Type.Object({ farmerId: Type.String({ minLength: 1, maxLength: 64 }) });
  /** The farmer's profile with what every farmer route shows of it; 404 without one. */
  async function farmerOf(farmerId: string) {
    const farmer = await models.Farmer.findOne({ user_id: farmerId }).lean();
    if (!farmer) throw notFound('FARMER_NOT_FOUND', 'This farmer has no profile yet.');
    return {
      farmer,
      farm: {
        farmer_id: farmer.user_id,
        business_name: farmer.business_name,
        location: farmer.location,
        tuber: farmer.tuber,
        phone_verified: isVerified(farmer),
      },
    };
  }

  // The farmer page (issue 26): the farm as buyers see it, without phone or e-mail, so no contact-read limit.
  app.get(
    '/api/profile/farmers/:farmerId',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "A farmer's farm as a buyer sees it: name, place, tubers, member since (no contact details)",
        security: [{ bearer: [] }],
        params: FarmerParams,
        response: { 200: FarmerPublic, 400: Type.Ref('ErrorResponse'), 401: Type.Ref('ErrorResponse'), 404: Type.Ref('ErrorResponse') },
      },
    },
    async (request) => {
      const { farmer, farm } = await farmerOf(request.params.farmerId);
      return {
        ...farm,
        // A profile made before the documents had timestamps: its id's own time, when it was made.
        member_since: ((farmer as { created_at?: Date }).created_at ?? (farmer._id as unknown as { getTimestamp(): Date }).getTimestamp()).toISOString(),
      };
    },
  );

  app.get(
    '/api/profile/farmers/:farmerId/contact',
    {
      onRequest: [
        app.authenticate,
        app.limitPerUser({
          name: 'contact-reads',
          max: CONTACT_READ_LIMIT.max,
          timeWindow: CONTACT_READ_LIMIT.windowSeconds * 1000,
          what: 'contact look-ups',
        }),
      ],
      schema: {
        summary: "A farmer's contact card",
        security: [{ bearer: [] }],
        params: FarmerParams,
        response: { 200: FarmerContact, 400: Type.Ref('ErrorResponse'), 404: Type.Ref('ErrorResponse') },
      },
    },
    async (request) => {
      const { farmer, farm } = await farmerOf(request.params.farmerId);
      return { ...farm, phone: farmer.phone, email: farmer.email };
    },
  );
}
