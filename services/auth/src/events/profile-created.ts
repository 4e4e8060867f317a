// When the profile service has created a profile, the account's pending_profile flag is cleared, and the
// user's kept sign-ins are told their claims changed.
// Setting the flag to "false" twice has the same effect as once, so redelivery is harmless. It holds the
// account's lock, as the language route does (both rewrite the account's attributes; domain/account-lock.ts).
import { ProfileCreated } from '@tuber/contracts';
import { withLocks, type EventBus, type RedisClient } from '@tuber/kit';
import { accountLockKey } from '../domain/account-lock.js';
import { SessionStore } from '../domain/session-store.js';
import type { AccountDirectory } from '../keycloak.js';

export async function clearPendingProfileOnCreation(bus: EventBus, accounts: AccountDirectory, redis: RedisClient): Promise<void> {
  await bus.consume(ProfileCreated, { durable: 'auth-clear-pending-profile' }, async (event) => {
    await withLocks(redis, [accountLockKey(event.user_id)], () => accounts.setAttribute(event.user_id, 'pending_profile', ['false']), {
      busy: () => new Error(`account ${event.user_id} is being changed; clearing pending_profile again later`),
    });
    // The user's kept sign-ins (docs/adr/0050) refresh on their next ask instead of handing out a token
    // that still says pending_profile. A failure here fails the delivery: it is tried again.
    await new SessionStore(redis).markAccountChanged(event.user_id);
  });
}
