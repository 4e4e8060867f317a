// When the profile service has created a profile, the account's pending_profile flag is cleared.
// Setting the flag to "false" twice has the same effect as once, so redelivery is harmless.
import { ProfileCreated } from '@tuber/contracts';
import type { EventBus } from '@tuber/kit';
import type { AccountDirectory } from '../keycloak.js';

export async function clearPendingProfileOnCreation(bus: EventBus, accounts: AccountDirectory): Promise<void> {
  await bus.consume(ProfileCreated, { durable: 'auth-clear-pending-profile' }, async (event) => {
    await accounts.setAttribute(event.user_id, 'pending_profile', ['false']);
  });
}
