import { Type } from '@sinclair/typebox';
import { HttpError, badRequest, conflict, type ServiceApp } from '@tuber/kit';
import {
  BuyerSignup,
  FarmerSignup,
  accountAttributes,
  normaliseEmail,
  passwordProblem,
  PASSWORD_REJECTED,
  type BuyerSignup as BuyerSignupBody,
  type FarmerSignup as FarmerSignupBody,
} from '../domain/signup.js';
import { EmailInUse, PasswordRejected, type AccountDirectory } from '../keycloak.js';
import { rejectInvalidBody } from './validation.js';

const Message = Type.Object({ message: Type.String() });
export const REGISTRATION_SUCCESSFUL = 'Registration successful! Please verify your email.';

export function signupRoutes(app: ServiceApp, deps: { accounts: AccountDirectory; rateLimit: object }) {
  async function register(body: BuyerSignupBody | FarmerSignupBody, role: 'buyer' | 'farmer', log: ServiceApp['log']) {
    const problem = passwordProblem(body.password, body.confirm_password);
    if (problem) throw badRequest(problem);
    const email = normaliseEmail(body.email);
    let id: string;
    try {
      id = await deps.accounts.create({
        email,
        firstName: body.firstname.trim(),
        lastName: body.lastname.trim(),
        password: body.password,
        role,
        attributes: accountAttributes(body, role),
      });
    } catch (err) {
      if (err instanceof EmailInUse) throw conflict('An account with this e-mail already exists. Log in, or reset your password.');
      if (err instanceof PasswordRejected) throw badRequest(PASSWORD_REJECTED);
      throw err;
    }
    try {
      await deps.accounts.sendVerifyEmail(id);
    } catch (err) {
      // The account exists; the person can ask for the mail again from the login page.
      log.error({ err, userId: id }, 'verification mail could not be sent');
      throw new HttpError(
        502,
        'Your account was created, but the verification e-mail could not be sent. Use "Resend verification" on the login page.',
      );
    }
    log.info({ userId: id, role }, 'account registered');
  }

  const responses = { 201: Message, 400: Type.Ref('ErrorResponse'), 409: Type.Ref('ErrorResponse'), 429: Type.Ref('ErrorResponse') };

  app.post(
    '/api/auth/signup/buyer',
    {
      config: { rateLimit: deps.rateLimit },
      attachValidation: true,
      schema: { summary: 'Create a buyer account', body: BuyerSignup, response: responses },
    },
    async (request, reply) => {
      rejectInvalidBody(request);
      await register(request.body, 'buyer', request.log);
      return reply.code(201).send({ message: REGISTRATION_SUCCESSFUL });
    },
  );

  app.post(
    '/api/auth/signup/farmer',
    {
      config: { rateLimit: deps.rateLimit },
      attachValidation: true,
      schema: { summary: 'Create a farmer account', body: FarmerSignup, response: responses },
    },
    async (request, reply) => {
      rejectInvalidBody(request);
      await register(request.body, 'farmer', request.log);
      return reply.code(201).send({ message: REGISTRATION_SUCCESSFUL });
    },
  );
}
