// A moderator's decisions (issue 26, docs/adr/0071). Each one, under the lock of the account or listing it falls on:
//   1. the outside effect first, when there is one (Keycloak: disable or enable the account, end its sessions,
//      mark those sessions ended so their access tokens are refused now); it is idempotent, so a retry after a
//      failure further on does no harm, and a failure here changes nothing and answers 503;
//   2. the audit entry, inserted (never updated or deleted): who, when, what, why;
//   3. the listing's or account's new standing with its event in the outbox (ListingModerated, AccountModerated),
//      then published; the relay sends it later should the bus be away;
//   4. the target's open reports closed, naming the entry.
import { randomUUID } from 'node:crypto';
import { AccountModerated, ListingModerated, type ModerationActionInput } from '@tuber/contracts';
import { conflict, pendingEvent, publishRecorded, unavailable, type EventBus, type RevokedSessions } from '@tuber/kit';
import type { FastifyBaseLogger } from 'fastify';
import { AccountsUnavailable, type AccountSwitch } from './accounts.js';
import type { AuditDoc, ModerationModels } from './models.js';
import type { ResolvedTarget } from './targets.js';

export interface Moderator {
  id: string;
  name: string;
}

export interface ActionDeps {
  models: ModerationModels;
  bus: EventBus;
  accounts: AccountSwitch;
  revoked: Pick<RevokedSessions, 'revoke'>;
  log: FastifyBaseLogger;
}

const invalid = (action: string, message: string) => conflict('MODERATION_ACTION_INVALID', message, { action });

/** The account a suspension or restoration falls on. */
export function subjectOf(target: ResolvedTarget, input: Pick<ModerationActionInput, 'account'>): string | undefined {
  if (target.kind === 'request') return input.account === 'buyer' ? target.buyerId : input.account === 'farmer' ? target.farmerId : undefined;
  return target.farmerId;
}

const countOpen = (models: ModerationModels, target: ResolvedTarget) =>
  models.Report.countDocuments({ target_kind: target.kind, target_id: target.id, state: 'open' });

/** Closes the target's open reports in the name of the entry; returns how many. */
async function closeReports(models: ModerationModels, target: ResolvedTarget, entryId: string, at: Date): Promise<number> {
  const closed = await models.Report.updateMany(
    { target_kind: target.kind, target_id: target.id, state: 'open' },
    { $set: { state: 'closed', closed_at: at, closed_by: entryId } },
  );
  return closed.modifiedCount;
}

async function audit(models: ModerationModels, entry: Omit<AuditDoc, 'closed_reports'> & { closed_reports?: number }): Promise<void> {
  await models.Audit.create({ closed_reports: 0, ...entry });
}

export async function act(deps: ActionDeps, moderator: Moderator, target: ResolvedTarget, input: ModerationActionInput): Promise<AuditDoc> {
  const { models, log } = deps;
  const at = new Date();
  const entryId = randomUUID();
  const base = {
    _id: entryId,
    at,
    moderator_id: moderator.id,
    moderator_name: moderator.name,
    action: input.action,
    target_kind: target.kind,
    target_id: target.id,
    reason: input.reason.trim(),
  };

  if (input.action === 'dismiss') {
    const open = await countOpen(models, target);
    if (open === 0) throw invalid('dismiss', 'There is no open report on this to dismiss.');
    const closed = await closeReports(models, target, entryId, at);
    await audit(models, { ...base, subject_user_id: target.farmerId, closed_reports: closed });
    log.info({ entryId, kind: target.kind, closed }, 'reports dismissed');
    return (await models.Audit.findById(entryId).lean())!;
  }

  if (input.action === 'hide' || input.action === 'unhide') {
    if (target.kind !== 'product') throw invalid(input.action, 'Only a product listing can be hidden or shown again.');
    const hide = input.action === 'hide';
    const state = await models.ListingState.findById(target.id).lean();
    if (Boolean(state?.hidden) === hide) throw invalid(input.action, hide ? 'This listing is hidden already.' : 'This listing is not hidden.');
    const revision = (state?.revision ?? 0) + 1;
    const open = hide ? await countOpen(models, target) : 0;
    await audit(models, { ...base, subject_user_id: target.farmerId, closed_reports: open });
    const event = pendingEvent(
      ListingModerated,
      { product_id: target.id, farmer_id: target.farmerId!, hidden: hide, reason: hide ? base.reason : null, revision, at: at.toISOString() },
      `listing-moderated:${target.id}:${revision}`,
    );
    await models.ListingState.updateOne(
      { _id: target.id },
      { $set: { farmer_id: target.farmerId, hidden: hide, reason: hide ? base.reason : null, revision }, $push: { outbox: event } },
      { upsert: true },
    );
    await publishRecorded(models.ListingState as never, { _id: target.id }, deps.bus, log);
    const closed = hide ? await closeReports(models, target, entryId, at) : 0;
    log.info({ entryId, productId: target.id, hidden: hide, closed }, hide ? 'listing hidden' : 'listing shown again');
    return (await models.Audit.findById(entryId).lean())!;
  }

  // suspend / restore: an account.
  const subject = subjectOf(target, input);
  if (!subject) throw conflict('MODERATION_ACCOUNT_REQUIRED', 'Say whose account: the farmer’s or the buyer’s.');
  if (subject === moderator.id) throw conflict('MODERATION_SELF', 'You cannot suspend or restore your own account.');
  const suspend = input.action === 'suspend';
  const until = suspend && input.until ? new Date(input.until) : null;
  if (until && until.getTime() <= at.getTime()) throw invalid('suspend', 'A suspension ends in the future: choose a later date, or none for good.');
  const state = await models.AccountState.findById(subject).lean();
  if (!suspend && !state?.suspended) throw invalid('restore', 'This account is not suspended.');
  try {
    if (suspend) {
      const sessions = await deps.accounts.suspend(subject);
      for (const sid of sessions) await deps.revoked.revoke(sid);
      log.info({ subject, sessions: sessions.length }, 'account disabled in Keycloak and its sign-ins ended');
    } else {
      await deps.accounts.enable(subject);
    }
  } catch (err) {
    if (err instanceof AccountsUnavailable) {
      log.error({ subject, err: err.message }, 'Keycloak did not take the moderator’s decision; nothing changed');
      throw unavailable('ACCOUNTS_UNAVAILABLE', 'Accounts cannot be changed right now (Keycloak does not answer). Nothing was changed: try again in a minute.');
    }
    throw err;
  }
  const revision = (state?.revision ?? 0) + 1;
  const open = suspend ? await countOpen(models, target) : 0;
  await audit(models, { ...base, subject_user_id: subject, closed_reports: open, ...(until ? { until } : {}) });
  const event = pendingEvent(
    AccountModerated,
    {
      user_id: subject,
      suspended: suspend,
      until: until ? until.toISOString() : null,
      reason: suspend ? base.reason : null,
      revision,
      at: at.toISOString(),
    },
    `account-moderated:${subject}:${revision}`,
  );
  await models.AccountState.updateOne(
    { _id: subject },
    { $set: { suspended: suspend, until, reason: suspend ? base.reason : null, revision }, $push: { outbox: event } },
    { upsert: true },
  );
  await publishRecorded(models.AccountState as never, { _id: subject }, deps.bus, log);
  const closed = suspend ? await closeReports(models, target, entryId, at) : 0;
  log.info({ entryId, subject, suspended: suspend, until, closed }, suspend ? 'account suspended' : 'account restored');
  return (await models.Audit.findById(entryId).lean())!;
}
