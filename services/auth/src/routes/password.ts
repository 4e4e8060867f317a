// Verification resend, forgot password and reset password. The first two answer at once and the
// same way whether or not the account exists: the lookup and the mail happen in the background,
// so neither the answer nor its timing tells anyone who has an account.
import { Type } from '@sinclair/typebox';
import type { onRequestAsyncHookHandler } from 'fastify';
import { LocaleSchema, localeOf } from '@tuber/contracts';
import { badRequest, conflict, type RevokedSessions, type ServiceApp } from '@tuber/kit';
import type { BackgroundWork } from '../background.js';
import type { PasswordBlocklist } from '../domain/blocklist.js';
import type { MailCooldown } from '../domain/mail-cooldown.js';
import { normaliseEmail, passwordProblem, refusalMessage } from '../domain/signup.js';
import type { Redemption, ResetTokens } from '../domain/reset-tokens.js';
import { PasswordRejected, type AccountDirectory } from '../keycloak.js';
import type { Mailer } from '../mailer.js';
import { PROOF_DESCRIPTION, ProofHeaders } from './form-gate.js';
import { rejectInvalidBody } from './validation.js';

const Message = Type.Object({ message: Type.String() });
const EmailBody = Type.Object({ email: Type.String({ format: 'email', maxLength: 254 }) }, { additionalProperties: false });
/** Issue 13: the app's language, for the mail when the account has none of its own (ADR 0044). */
const ForgotBody = Type.Object(
  { email: Type.String({ format: 'email', maxLength: 254 }), locale: Type.Optional(LocaleSchema) },
  { additionalProperties: false },
);
const TokenField = Type.String({ minLength: 1, maxLength: 100 });

export const VERIFICATION_RESENT = 'Verification email resent! Please check your inbox.';
export const RESET_LINK_SENT = 'Password reset link sent to your email!';
export const NO_ACTIVE_SESSION = 'No active session. Please request a new reset link.';
export const PASSWORD_UPDATED = 'Password updated successfully!';
export const RESET_IN_PROGRESS = "This account's password is being changed right now. Please wait a moment and try again.";

export interface PasswordDeps {
  accounts: AccountDirectory;
  tokens: ResetTokens;
  mailer: Mailer;
  background: BackgroundWork;
  /** One mail per address per cooldown, whatever the route (the answer does not change). */
  cooldown: MailCooldown;
  blocklist: PasswordBlocklist;
  /** Where ended sign-ins are recorded, so that their access tokens stop working at once (docs/adr/0056). */
  revoked?: RevokedSessions;
  publicUrl: string;
  tokenTtlSeconds: number;
  /** The account forms' gate (docs/adr/0068): an onRequest hook. */
  gate: onRequestAsyncHookHandler;
}

export function passwordRoutes(app: ServiceApp, deps: PasswordDeps) {
  const errors = { 400: Type.Ref('ErrorResponse'), 429: Type.Ref('ErrorResponse') };

  app.post(
    '/api/auth/verification/resend',
    {
      onRequest: deps.gate,
      config: { rateLimit: false },
      attachValidation: true,
      schema: { summary: 'Send the verification e-mail again', description: PROOF_DESCRIPTION, headers: ProofHeaders, body: EmailBody, response: { 202: Message, ...errors } },
    },
    async (request, reply) => {
      rejectInvalidBody(request);
      const email = normaliseEmail(request.body.email);
      deps.background.start(request.log, 'verification mail', { email }, async (context) => {
        const account = await deps.accounts.findByEmail(email);
        if (!account || account.emailVerified) return;
        context.userId = account.id;
        const sent = await deps.cooldown.sendOnce(email, () => deps.accounts.sendVerifyEmail(account.id));
        request.log.info({ userId: account.id }, sent ? 'verification mail sent again' : 'verification mail skipped: cooldown');
      });
      return reply.code(202).send({ message: VERIFICATION_RESENT });
    },
  );

  app.post(
    '/api/auth/password/forgot',
    {
      onRequest: deps.gate,
      config: { rateLimit: false },
      attachValidation: true,
      schema: { summary: 'E-mail a password reset link', description: PROOF_DESCRIPTION, headers: ProofHeaders, body: ForgotBody, response: { 202: Message, ...errors } },
    },
    async (request, reply) => {
      rejectInvalidBody(request);
      const email = normaliseEmail(request.body.email);
      deps.background.start(request.log, 'password reset mail', { email }, async (context) => {
        const account = await deps.accounts.findByEmail(email);
        if (!account) return;
        context.userId = account.id;
        const sent = await deps.cooldown.sendOnce(email, async () => {
          const token = await deps.tokens.issue(account.id);
          // The token travels in the fragment, which browsers never send to a server or a Referer.
          const link = `${deps.publicUrl.replace(/\/$/, '')}/reset-password#token=${token}`;
          await deps.mailer.sendPasswordReset(
            account.email,
            link,
            Math.round(deps.tokenTtlSeconds / 60),
            localeOf(account.attributes.locale) ?? request.body.locale,
          );
        });
        request.log.info({ userId: account.id }, sent ? 'password reset link sent' : 'password reset mail skipped: cooldown');
      });
      return reply.code(202).send({ message: RESET_LINK_SENT });
    },
  );

  app.post(
    '/api/auth/password/reset/check',
    {
      onRequest: deps.gate,
      config: { rateLimit: false },
      schema: {
        summary: 'Is this reset link still usable?',
        description: PROOF_DESCRIPTION,
        headers: ProofHeaders,
        body: Type.Object({ token: TokenField }, { additionalProperties: false }),
        response: { 200: Message, ...errors },
      },
    },
    async (request) => {
      if (!(await deps.tokens.isValid(request.body.token))) throw badRequest('RESET_LINK_INVALID', NO_ACTIVE_SESSION);
      return { message: 'The reset link is valid.' };
    },
  );

  app.post(
    '/api/auth/password/reset',
    {
      onRequest: deps.gate,
      config: { rateLimit: false },
      attachValidation: true,
      schema: {
        summary: 'Set a new password with a reset link',
        description: PROOF_DESCRIPTION,
        headers: ProofHeaders,
        body: Type.Object(
          {
            token: TokenField,
            password: Type.String({ minLength: 1, maxLength: 128 }),
            confirm_password: Type.String({ minLength: 1, maxLength: 128 }),
          },
          { additionalProperties: false },
        ),
        response: { 200: Message, 409: Type.Ref('ErrorResponse'), ...errors },
      },
    },
    async (request) => {
      rejectInvalidBody(request);
      const { token, password, confirm_password } = request.body;
      // The product's own rules first: they give the spec's messages without asking Keycloak.
      const problem = passwordProblem(password, confirm_password, { isCommon: (p) => deps.blocklist.has(p) });
      if (problem) throw badRequest(problem);
      let redemption: Redemption;
      try {
        // The link is spent only if Keycloak takes the password; a refusal leaves it usable.
        redemption = await deps.tokens.redeem(token, (userId) => deps.accounts.setPassword(userId, password));
      } catch (err) {
        if (err instanceof PasswordRejected) throw badRequest(refusalMessage(err.message));
        throw err;
      }
      if (redemption.outcome === 'invalid') throw badRequest('RESET_LINK_INVALID', NO_ACTIVE_SESSION);
      if (redemption.outcome === 'busy') throw conflict('RESET_IN_PROGRESS', RESET_IN_PROGRESS);
      const { userId } = redemption;
      // The sign-ins the reset ends: their access tokens must stop working now, not when they expire
      // (a reset is often made because someone else had the password). Recorded before Keycloak ends
      // them, so that no token of theirs outlives the answer.
      if (deps.revoked) {
        const sids = await deps.accounts.sessionIds(userId);
        await Promise.all(sids.map((sid) => deps.revoked!.revoke(sid)));
      }
      await deps.accounts.endSessions(userId);
      // A stranger's wrong passwords may have locked the account for a while (Keycloak's temporary
      // lockout). The owner has just proved themselves by the e-mailed link: the lock is for the
      // stranger, not for them, so it ends here (docs/adr/0062). A failure here must not undo the reset.
      await deps.accounts.clearFailedSignIns(userId).catch((err: unknown) => {
        request.log.warn({ err, userId }, 'password reset, but the failed sign-ins could not be cleared: a lockout may last until it expires');
      });
      request.log.info({ userId }, 'password reset; other sessions ended; failed sign-ins cleared');
      // The owner hears of it, wherever the reset came from. Not held back by the cooldown: the reset
      // link itself came by mail moments ago, and a security notice must not be the mail that is dropped.
      deps.background.start(request.log, 'password changed mail', { userId }, async () => {
        const account = await deps.accounts.findById(userId);
        if (!account?.email) return;
        await deps.mailer.sendPasswordChanged(
          account.email,
          { forgot: `${deps.publicUrl.replace(/\/$/, '')}/forgot-password` },
          localeOf(account.attributes.locale),
        );
      });
      return { message: PASSWORD_UPDATED };
    },
  );
}
