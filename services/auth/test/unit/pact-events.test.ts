// The auth service as an event consumer (issue 23, docs/delivery.md): a new profile ends the account's
// "profile pending" mark (src/events/profile-created.ts). contracts/pacts/auth-profile.json must say the same
// (make pacts); test/system/pact-messages.test.ts verifies the running profile service's events against it.
import { afterAll, describe, expect, it } from 'vitest';
import { ProfileCreated } from '@tuber/contracts';
import { messagePact } from '../../../../test/support/message-pacts.js';

describe('pact: auth ← profile', () => {
  const pact = messagePact('auth', 'profile');
  afterAll(() => expect(pact.drift()).toBeNull());

  it('clears the pending-profile mark of the account that made a profile', async () => {
    await pact.expect({
      event: ProfileCreated,
      example: { user_id: 'df14b4ab-e129-4ac6-bc8b-a803f22af81b', email: 'ada@example.test', user_type: 'buyer', created_at: '2026-11-28T12:30:00.000Z' },
      handle: (created) => expect(created.user_id).not.toBe(''),
    });
  });
});
