// What happens to accounts in Keycloak reaches profiles here (published by the auth service).
// Both handlers are idempotent and make one-document writes (FerretDB has no multi-document
// transactions): a redelivered or repeated event changes nothing more.
import { AccountDeleted, AccountEmailChanged } from '@tuber/contracts';
import { publishRecorded, withDocumentLock, type EventBus } from '@tuber/kit';
import type { FastifyBaseLogger } from 'fastify';
import type { ProfileModels } from '../domain/models.js';

export async function followIdentity(bus: EventBus, models: ProfileModels, log: FastifyBaseLogger): Promise<void> {
  const { Buyer, Farmer, RemovedAccount } = models;

  // The profile goes with its account, so a new account that reuses the address inherits nothing.
  // The tombstone comes first: a token of the deleted account still valid for a few minutes cannot
  // create the profile again.
  await bus.consume(AccountDeleted, { durable: 'profile-account-deleted' }, async (event) => {
    const { user_id } = event;
    await RemovedAccount.updateOne({ user_id }, { $setOnInsert: { user_id, deleted_at: new Date(event.deleted_at) } }, { upsert: true });
    // Events the farmer's last change recorded still go out before the document does.
    await publishRecorded(Farmer, { user_id }, bus, log);
    const farmer = await Farmer.deleteOne({ user_id });
    const buyer = await Buyer.deleteOne({ user_id });
    if (farmer.deletedCount || buyer.deletedCount) log.info({ userId: user_id }, 'profile deleted with its account');
  });

  // Only a verified address is copied, and only over an older one.
  await bus.consume(AccountEmailChanged, { durable: 'profile-account-email' }, async (event) => {
    if (!event.email_verified) return;
    const changedAt = new Date(event.changed_at);
    const email = event.email.trim().toLowerCase();
    const older = {
      user_id: event.user_id,
      email: { $ne: email },
      $or: [{ email_changed_at: { $exists: false } }, { email_changed_at: { $lt: changedAt } }],
    };
    for (const model of [Buyer, Farmer] as const) {
      const changed = await withDocumentLock(model, { user_id: event.user_id }, () =>
        (model as typeof Buyer).updateOne(older, { $set: { email, email_changed_at: changedAt } }),
      );
      if (changed.modifiedCount) log.info({ userId: event.user_id }, 'profile e-mail follows the account');
    }
  });
}
