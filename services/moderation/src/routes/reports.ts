// Reporting a product, a farm or a request (issue 26, docs/adr/0071): anyone signed in, about anything they can
// see; a request only by its two parties. The same person's repeats of an open report are one report (`times`
// counts them, the newest reason and note win). Limited per person, never per address.
import { Type } from '@sinclair/typebox';
import { REPORTS_PER_HOUR, ReportInput, ReportReceipt } from '@tuber/contracts';
import { badRequest, conflict, notFound, withLocks, type RedisClient, type ServiceApp } from '@tuber/kit';
import { randomUUID } from 'node:crypto';
import type { ModerationModels } from '../domain/models.js';
import { resolveTarget } from '../domain/targets.js';

/** "Ada O.": the reporter as the desk shows them, from the token's names. */
export function shortName(claims: Record<string, unknown>): string {
  const first = typeof claims.given_name === 'string' ? claims.given_name.trim() : '';
  const last = typeof claims.family_name === 'string' ? claims.family_name.trim() : '';
  return [first, last ? `${last[0]}.` : ''].filter(Boolean).join(' ') || 'A member';
}

export function reportRoutes(app: ServiceApp, deps: { models: ModerationModels; redis: RedisClient }) {
  const { models, redis } = deps;
  app.post(
    '/api/moderation/reports',
    {
      onRequest: [
        app.authenticate,
        app.limitPerUser({ name: 'reports', max: REPORTS_PER_HOUR, timeWindow: 3_600_000, what: 'reports' }),
      ],
      schema: {
        summary: 'Report a product, a farm or an order request to the moderators',
        description: `201 a new report; 200 when it joined this person's open report of the same target. ${REPORTS_PER_HOUR} an hour per person (429 RATE_LIMITED).`,
        security: [{ bearer: [] }],
        body: ReportInput,
        response: {
          200: ReportReceipt,
          201: ReportReceipt,
          400: Type.Ref('ErrorResponse'),
          404: Type.Ref('ErrorResponse'),
          409: Type.Ref('ErrorResponse'),
          429: Type.Ref('ErrorResponse'),
        },
      },
    },
    async (request, reply) => {
      const reporter = request.identity.userId;
      const { target_kind: kind, target_id: id, reason } = request.body;
      const note = request.body.note?.trim() || undefined;
      const target = await resolveTarget(models, kind, id);
      const missing = () => notFound('REPORT_TARGET_NOT_FOUND', 'We could not find what you reported. Reload the page and try again.');
      if (!target) throw missing();
      // A request is reported by its parties only; to anyone else it does not exist.
      if (kind === 'request' && reporter !== target.buyerId && reporter !== target.farmerId) throw missing();
      if (kind !== 'request' && target.farmerId === reporter) throw badRequest('REPORT_OWN', 'You cannot report your own listing or farm.');

      return withLocks(
        redis,
        [`moderation:lock:report:${reporter}:${kind}:${id}`],
        async () => {
          const now = new Date();
          const open = await models.Report.findOne({ reporter_id: reporter, target_kind: kind, target_id: id, state: 'open' }).lean();
          if (open) {
            const times = (open.times ?? 1) + 1;
            await models.Report.updateOne(
              { _id: open._id },
              { $set: { reason, times, updated_at: now, ...(note ? { note } : {}) } },
            );
            request.log.info({ reportId: open._id, kind, times }, 'report repeated: merged');
            return reply.code(200).send({ report_id: open._id, merged: true, times });
          }
          const reportId = randomUUID();
          await models.Report.create({
            _id: reportId,
            reporter_id: reporter,
            reporter_name: shortName(request.identity.claims),
            target_kind: kind,
            target_id: id,
            reason,
            ...(note ? { note } : {}),
            times: 1,
            state: 'open',
            created_at: now,
            updated_at: now,
          });
          request.log.info({ reportId, kind, reason }, 'report received');
          return reply.code(201).send({ report_id: reportId, merged: false, times: 1 });
        },
        { busy: () => conflict('MODERATION_BUSY', 'Your report is being saved from another tab; try again in a moment.') },
      );
    },
  );
}
