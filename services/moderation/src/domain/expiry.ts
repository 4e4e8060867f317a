// Suspensions for a time end by themselves (issue 26, docs/adr/0071): every replica looks every 30 s, the one
// holding the lease restores each account whose `until` has passed, as a moderator would (Keycloak, the audit
// log in the name of "Tuber Market", the event), under the account's lock.
import { everyUnderLease, withLocks, type RedisClient } from '@tuber/kit';
import { act, type ActionDeps } from './actions.js';

export const EXPIRY_SWEEP_MS = 30_000;
const EXPIRY_LEASE = { key: 'moderation:lease:suspensions', ttlMs: 120_000 };
export const SYSTEM_MODERATOR = { id: 'tuber-market', name: 'Tuber Market' };

/** Restores every suspension that ended by `now`; returns the accounts restored. */
export async function endSuspensions(deps: ActionDeps & { redis: RedisClient }, now: Date): Promise<string[]> {
  // Equality only (FerretDB pushes nothing else down); the few suspended accounts are filtered here.
  const suspended = await deps.models.AccountState.find({ suspended: true }, { until: 1 }).lean();
  const due = suspended.filter((state) => state.until && new Date(state.until).getTime() <= now.getTime());
  const restored: string[] = [];
  for (const state of due) {
    try {
      await withLocks(deps.redis, [`moderation:lock:account:${state._id}`], () =>
        act(deps, SYSTEM_MODERATOR, { kind: 'farmer', id: state._id, title: state._id, farmerId: state._id }, {
          action: 'restore',
          reason: 'The suspension ended.',
        }),
        { busy: () => new Error('a moderator is acting on this account right now') },
      );
      restored.push(state._id);
    } catch (err) {
      deps.log.warn({ userId: state._id, err: (err as Error).message }, 'an ended suspension could not be lifted yet; trying again at the next sweep');
    }
  }
  return restored;
}

export function sweepSuspensions(deps: ActionDeps & { redis: RedisClient }, onClose: (stop: () => Promise<void>) => void): void {
  everyUnderLease(deps.redis, { ...EXPIRY_LEASE, everyMs: EXPIRY_SWEEP_MS }, () => endSuspensions(deps, new Date()), {
    log: deps.log,
    what: 'the suspension sweep',
    onClose,
  });
}
