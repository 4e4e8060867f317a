// Verification resend, forgot password and reset password. The first two answer the same way
// whether or not the account exists, so they cannot be used to find out who has an account.
import { Type } from '@sinclair/typebox';
import { badRequest, type ServiceApp } from '@tuber/kit';
import { normaliseEmail, passwordProblem } from '../domain/signup.js';
import type { ResetTokens } from '../domain/reset-tokens.js';
import { PasswordRejected, type AccountDirectory } from '../keycloak.js';
import type { Mailer } from '../mailer.js';

const Message = Type.Object({ message: Type.String() });
const EmailBody = Type.Object({ email: Type.String({ format: 'email', maxLength: 254 }) }, { additionalProperties: false });
const TokenField = Type.String({ minLength: 1, maxLength: 100 });

export const VERIFICATION_RESENT = 'Verification email resent! Please check your inbox.';
export const RESET_LINK_SENT = 'Password reset link sent to your email!';
export const NO_ACTIVE_SESSION = 'No active session. Please request a new reset link.';
export const PASSWORD_UPDATED = 'Password updated successfully!';

export interface PasswordDeps {
  accounts: AccountDirectory;
  tokens: ResetTokens;
  mailer: Mailer;
  publicUrl: string;
  tokenTtlSeconds: number;
  rateLimit: object;
}

export function passwordRoutes(app: ServiceApp, deps: PasswordDeps) {
  const errors = { 400: Type.Ref('ErrorResponse'), 429: Type.Ref('ErrorResponse') };

  app.post(
    '/api/auth/verification/resend',
    { config: { rateLimit: deps.rateLimit }, schema: { summary: 'Send the verification e-mail again', body: EmailBody, response: { 202: Message, ...errors } } },
    async (request, reply) => {
      const account = await deps.accounts.findByEmail(normaliseEmail(request.body.email));
      if (account && !account.emailVerified) await deps.accounts.sendVerifyEmail(account.id);
      return reply.code(202).send({ message: VERIFICATION_RESENT });
    },
  );

  app.post(
    '/api/auth/password/forgot',
    { config: { rateLimit: deps.rateLimit }, schema: { summary: 'E-mail a password reset link', body: EmailBody, response: { 202: Message, ...errors } } },
    async (request, reply) => {
      const account = await deps.accounts.findByEmail(normaliseEmail(request.body.email));
      if (account) {
        const token = await deps.tokens.issue(account.id);
        // The token travels in the fragment, which browsers never send to a server or a Referer.
        const link = `${deps.publicUrl.replace(/\/$/, '')}/reset-password#token=${token}`;
        await deps.mailer.sendPasswordReset(account.email, link, Math.round(deps.tokenTtlSeconds / 60));
        request.log.info({ userId: account.id }, 'password reset link sent');
      }
      return reply.code(202).send({ message: RESET_LINK_SENT });
    },
  );

  app.post(
    '/api/auth/password/reset/check',
    { config: { rateLimit: deps.rateLimit }, schema: { summary: 'Is this reset link still usable?', body: Type.Object({ token: TokenField }, { additionalProperties: false }), response: { 200: Message, ...errors } } },
    async (request) => {
      if (!(await deps.tokens.isValid(request.body.token))) throw badRequest(NO_ACTIVE_SESSION);
      return { message: 'The reset link is valid.' };
    },
  );

  app.post(
    '/api/auth/password/reset',
    {
      config: { rateLimit: deps.rateLimit },
      schema: {
        summary: 'Set a new password with a reset link',
        body: Type.Object({ token: TokenField, password: Type.String({ minLength: 1, maxLength: 128 }), confirm_password: Type.String({ minLength: 1, maxLength: 128 }) }, { additionalProperties: false }),
        response: { 200: Message, ...errors },
      },
    },
    async (request) => {
      const { token, password, confirm_password } = request.body;
      // Check the rules first so a typo does not use the link up.
      const problem = passwordProblem(password, confirm_password);
      if (problem) throw badRequest(problem);
      if (!(await deps.tokens.isValid(token))) throw badRequest(NO_ACTIVE_SESSION);
      const userId = await deps.tokens.consume(token);
      if (!userId) throw badRequest(NO_ACTIVE_SESSION);
      try {
        await deps.accounts.setPassword(userId, password);
      } catch (err) {
        if (err instanceof PasswordRejected) throw badRequest('Choose a password of at least 6 characters that is not your e-mail address.');
        throw err;
      }
      await deps.accounts.endSessions(userId);
      request.log.info({ userId }, 'password reset; other sessions ended');
      return { message: PASSWORD_UPDATED };
    },
  );
}
