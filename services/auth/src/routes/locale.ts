// The signed-in person's language (issue 13, docs/adr/0044-server-languages.md): the app calls this when
// someone picks a language in the header (and after signing in, when the token's `locale` claim differs
// from the app's choice). It becomes the account's Keycloak `locale` attribute, which Keycloak's own pages
// and mails follow, the next token carries as `locale`, the auth service's mails read, and the relay
// publishes with AccountEmailChanged for the orders service's mails.
import { Type } from '@sinclair/typebox';
import { LocaleSchema, localeOf } from '@tuber/contracts';
import { notFound, unavailable, withLocks, type RedisClient, type ServiceApp } from '@tuber/kit';
import { accountLockKey } from '../domain/account-lock.js';
import { SessionStore } from '../domain/session-store.js';
import type { AccountDirectory } from '../keycloak.js';

export const LOCALE_BUSY = 'Your account is being changed right now. Please try again in a moment.';

export function localeRoutes(app: ServiceApp, deps: { accounts: AccountDirectory; redis: RedisClient }) {
  app.put(
    '/api/auth/me/locale',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "Keep the signed-in person's language (en, pcm, yo, ha or ig) for their e-mails and Keycloak's pages",
        security: [{ bearer: [] }],
        body: Type.Object({ locale: LocaleSchema }, { additionalProperties: false }),
        response: {
          200: Type.Object({ locale: LocaleSchema, changed: Type.Boolean() }),
          400: Type.Ref('ErrorResponse'),
          404: Type.Ref('ErrorResponse'),
          429: Type.Ref('ErrorResponse'),
          503: Type.Ref('ErrorResponse'),
        },
      },
    },
    async (request) => {
      const { locale } = request.body;
      const userId = request.identity.userId;
      // One writer of the account's attributes at a time: Keycloak replaces them wholesale on update.
      const changed = await withLocks(
        deps.redis,
        [accountLockKey(userId)],
        async () => {
          const account = await deps.accounts.findById(userId);
          if (!account) throw notFound('ACCOUNT_GONE', 'Your account no longer exists. Sign in again.');
          if (localeOf(account.attributes.locale) === locale) return false;
          await deps.accounts.setAttribute(userId, 'locale', [locale]);
          return true;
        },
        { busy: () => unavailable('ACCOUNT_BUSY', LOCALE_BUSY) },
      );
      if (changed) {
        request.log.info({ userId, locale }, 'account language changed');
        // The token's locale claim is new: kept sign-ins refresh rather than hand out the old one (docs/adr/0050).
        await new SessionStore(deps.redis).markAccountChanged(userId).catch((err: unknown) => {
          request.log.warn({ userId, reason: err instanceof Error ? err.message : String(err) }, 'could not mark the account changed');
        });
      }
      return { locale, changed };
    },
  );
}
