// The moderation desk's API (issue 26, docs/adr/0071): moderators only (realm role `moderator`; 403 for buyers
// and farmers). The queue of reported targets, oldest first; a target with its reports and the actions taken on
// it and its accounts; the actions; the audit log, newest first.
import { Type } from '@sinclair/typebox';
import {
  AuditPage,
  ModerationActionInput,
  QueuePage,
  ReportTargetKindSchema,
  TargetDetail,
  AuditEntry as AuditEntrySchema,
  type AuditEntry,
  type ReportView,
} from '@tuber/contracts';
import { conflict, notFound, withLocks, type RedisClient, type ServiceApp } from '@tuber/kit';
import { act, subjectOf, type ActionDeps } from '../domain/actions.js';
import type { AuditDoc, ReportDoc } from '../domain/models.js';
import { resolveTarget, summarise } from '../domain/targets.js';
import { shortName } from './reports.js';

export const QUEUE_PAGE = 20;
export const AUDIT_PAGE = 50;
/** Open reports the queue groups at once: far above what one city's market makes, and a bound on the work. */
export const QUEUE_SCAN_MAX = 5_000;

export const presentEntry = (entry: AuditDoc): AuditEntry => ({
  entry_id: entry._id,
  at: new Date(entry.at).toISOString(),
  moderator_id: entry.moderator_id,
  moderator_name: entry.moderator_name,
  action: entry.action as AuditEntry['action'],
  target_kind: entry.target_kind as AuditEntry['target_kind'],
  target_id: entry.target_id,
  ...(entry.subject_user_id ? { subject_user_id: entry.subject_user_id } : {}),
  reason: entry.reason,
  ...(entry.until ? { until: new Date(entry.until).toISOString() } : {}),
  closed_reports: entry.closed_reports ?? 0,
});

const presentReport = (report: ReportDoc & { _id: string }): ReportView => ({
  report_id: report._id,
  reporter_id: report.reporter_id,
  reporter_name: report.reporter_name || 'A member',
  reason: report.reason as ReportView['reason'],
  ...(report.note ? { note: report.note } : {}),
  times: report.times ?? 1,
  state: report.state as ReportView['state'],
  created_at: new Date(report.created_at).toISOString(),
  updated_at: new Date(report.updated_at).toISOString(),
});

const errors = {
  400: Type.Ref('ErrorResponse'),
  401: Type.Ref('ErrorResponse'),
  403: Type.Ref('ErrorResponse'),
  404: Type.Ref('ErrorResponse'),
};
const TargetParams = Type.Object({ kind: ReportTargetKindSchema, id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) });

export function deskRoutes(app: ServiceApp, deps: Omit<ActionDeps, 'log'> & { redis: RedisClient }) {
  const { models } = deps;
  const moderatorOnly = app.requireRole('moderator');

  app.get(
    '/api/moderation/queue',
    {
      onRequest: moderatorOnly,
      schema: {
        summary: 'Reported targets with open reports, oldest report first',
        security: [{ bearer: [] }],
        querystring: Type.Object({ cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$', description: 'from `next`' })) }),
        response: { 200: QueuePage, ...errors },
      },
    },
    async (request) => {
      const open = await models.Report.find({ state: 'open' }, { target_kind: 1, target_id: 1, reason: 1, times: 1, created_at: 1, updated_at: 1 })
        .limit(QUEUE_SCAN_MAX)
        .lean();
      const groups = new Map<string, { kind: string; id: string; count: number; reasons: Record<string, number>; first: Date; last: Date }>();
      for (const report of open) {
        const key = `${report.target_kind}:${report.target_id}`;
        const group = groups.get(key) ?? { kind: report.target_kind, id: report.target_id, count: 0, reasons: {}, first: report.created_at, last: report.updated_at };
        group.count += 1;
        group.reasons[report.reason] = (group.reasons[report.reason] ?? 0) + 1;
        if (report.created_at < group.first) group.first = report.created_at;
        if (report.updated_at > group.last) group.last = report.updated_at;
        groups.set(key, group);
      }
      const ordered = [...groups.values()].sort((a, b) => a.first.getTime() - b.first.getTime() || a.id.localeCompare(b.id));
      const offset = Number(request.query.cursor ?? 0);
      const page = ordered.slice(offset, offset + QUEUE_PAGE);
      const items = [];
      for (const group of page) {
        const target = (await resolveTarget(models, group.kind as never, group.id)) ?? { kind: group.kind as never, id: group.id, title: group.id };
        items.push({
          target: await summarise(models, target),
          open_reports: group.count,
          reasons: group.reasons,
          first_reported_at: new Date(group.first).toISOString(),
          last_reported_at: new Date(group.last).toISOString(),
        });
      }
      return { items, ...(offset + QUEUE_PAGE < ordered.length ? { next: String(offset + QUEUE_PAGE) } : {}) };
    },
  );

  app.get(
    '/api/moderation/targets/:kind/:id',
    {
      onRequest: moderatorOnly,
      schema: {
        summary: 'A reported target with its reports and the actions taken on it and its accounts',
        security: [{ bearer: [] }],
        params: TargetParams,
        response: { 200: TargetDetail, ...errors },
      },
    },
    async (request) => {
      const { kind, id } = request.params;
      const target = await resolveTarget(models, kind, id);
      if (!target) throw notFound('MODERATION_TARGET_NOT_FOUND', 'This product, farm or request is not known here.');
      const accounts = [target.farmerId, target.buyerId].filter((v): v is string => Boolean(v));
      const [reports, onTarget, onAccounts] = await Promise.all([
        models.Report.find({ target_kind: kind, target_id: id }).sort({ created_at: -1 }).limit(200).lean(),
        models.Audit.find({ target_id: id }).lean(),
        accounts.length ? models.Audit.find({ subject_user_id: { $in: accounts } }).lean() : [],
      ]);
      const entries = new Map<string, AuditDoc>();
      for (const entry of [...onTarget, ...onAccounts]) entries.set(entry._id, entry);
      const actions = [...entries.values()].sort((a, b) => new Date(b.at).getTime() - new Date(a.at).getTime()).slice(0, 200);
      return {
        target: await summarise(models, target),
        reports: reports.map((report) => presentReport(report as never)),
        actions: actions.map(presentEntry),
      };
    },
  );

  app.post(
    '/api/moderation/targets/:kind/:id/actions',
    {
      onRequest: moderatorOnly,
      schema: {
        summary: 'Dismiss the reports, hide or show a listing, suspend or restore an account',
        description:
          'Written to the audit log. Suspend/restore fall on the target’s farmer, or on a request on `account` (farmer or buyer). 409 MODERATION_ACTION_INVALID when the action does not apply; 503 ACCOUNTS_UNAVAILABLE when Keycloak does not answer (nothing changed).',
        security: [{ bearer: [] }],
        params: TargetParams,
        body: ModerationActionInput,
        response: { 201: AuditEntrySchema, ...errors, 409: Type.Ref('ErrorResponse'), 503: Type.Ref('ErrorResponse') },
      },
    },
    async (request, reply) => {
      const { kind, id } = request.params;
      const target = await resolveTarget(models, kind, id);
      if (!target) throw notFound('MODERATION_TARGET_NOT_FOUND', 'This product, farm or request is not known here.');
      const moderator = { id: request.identity.userId, name: shortName(request.identity.claims) };
      // One decision at a time per listing and per account it may fall on.
      const subject = subjectOf(target, request.body);
      const keys = [`moderation:lock:target:${kind}:${id}`, ...(subject ? [`moderation:lock:account:${subject}`] : [])];
      const entry = await withLocks(deps.redis, keys, () => act({ ...deps, log: request.log }, moderator, target, request.body), {
        busy: () => conflict('MODERATION_BUSY', 'Another moderator is acting on this right now; reload and look again.'),
      });
      return reply.code(201).send(presentEntry(entry));
    },
  );

  app.get(
    '/api/moderation/audit',
    {
      onRequest: moderatorOnly,
      schema: {
        summary: 'The audit log, newest first',
        security: [{ bearer: [] }],
        querystring: Type.Object({ before: Type.Optional(Type.String({ format: 'date-time', description: 'from `next`' })) }),
        response: { 200: AuditPage, ...errors },
      },
    },
    async (request) => {
      const filter = request.query.before ? { at: { $lt: new Date(request.query.before) } } : {};
      const entries = await models.Audit.find(filter).sort({ at: -1 }).limit(AUDIT_PAGE + 1).lean();
      const shown = entries.slice(0, AUDIT_PAGE);
      return {
        entries: shown.map(presentEntry),
        ...(entries.length > AUDIT_PAGE ? { next: new Date(shown[shown.length - 1]!.at).toISOString() } : {}),
      };
    },
  );
}
