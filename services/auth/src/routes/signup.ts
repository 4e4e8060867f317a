// Sign-up. The answer never says whether the address already has an account: after the form's
// own rules (checked here, including Keycloak's password policy), every request gets the same
// 201 at once, and the Keycloak work runs in the background — a new address gets its account and
// Keycloak's verification mail, an address that has an account gets a mail telling its owner.
import { Type } from '@sinclair/typebox';
import type { onRequestAsyncHookHandler } from 'fastify';
import { localeOf } from '@tuber/contracts';
import { badRequest, type ServiceApp } from '@tuber/kit';
import type { BackgroundWork } from '../background.js';
import type { PasswordBlocklist } from '../domain/blocklist.js';
import type { MailCooldown } from '../domain/mail-cooldown.js';
import {
  BuyerSignup,
  FarmerSignup,
  accountAttributes,
  normaliseEmail,
  passwordProblem,
  personNameProblem,
  signupPhone,
  type BuyerSignup as BuyerSignupBody,
  type FarmerSignup as FarmerSignupBody,
} from '../domain/signup.js';
import { EmailInUse, type AccountDirectory } from '../keycloak.js';
import type { Mailer } from '../mailer.js';
import { PROOF_DESCRIPTION, ProofHeaders } from './form-gate.js';
import { rejectInvalidBody } from './validation.js';

const Message = Type.Object({ message: Type.String() });
export const REGISTRATION_SUCCESSFUL = 'Registration successful! Please verify your email.';

export interface SignupDeps {
  accounts: AccountDirectory;
  mailer: Mailer;
  background: BackgroundWork;
  cooldown: MailCooldown;
  blocklist: PasswordBlocklist;
  publicUrl: string;
  /** The account forms' gate (docs/adr/0068): an onRequest hook. */
  gate: onRequestAsyncHookHandler;
}

export function signupRoutes(app: ServiceApp, deps: SignupDeps) {
  const base = deps.publicUrl.replace(/\/$/, '');

  function register(body: BuyerSignupBody | FarmerSignupBody, role: 'buyer' | 'farmer', log: ServiceApp['log']) {
    const email = normaliseEmail(body.email);
    const phone = signupPhone(body.phone);
    if ('problem' in phone) throw badRequest(phone.problem);
    const nameProblem = personNameProblem('firstname', body.firstname) ?? personNameProblem('lastname', body.lastname);
    if (nameProblem) throw badRequest(nameProblem);
    const problem = passwordProblem(body.password, body.confirm_password, { email, isCommon: (p) => deps.blocklist.has(p) });
    if (problem) throw badRequest(problem);
    deps.background.start(log, 'sign-up', { email, role }, async (context) => {
      let id: string;
      try {
        id = await deps.accounts.create({
          email,
          firstName: body.firstname.trim(),
          lastName: body.lastname.trim(),
          password: body.password,
          role,
          attributes: accountAttributes({ ...body, phone: phone.phone }, role),
        });
      } catch (err) {
        if (!(err instanceof EmailInUse)) throw err;
        // The address has an account: its owner hears of the attempt, the caller learns nothing. In the
        // owner's language (issue 13); the form's when the account has none.
        const sent = await deps.cooldown.sendOnce(email, async () => {
          const owner = await deps.accounts.findByEmail(email);
          const locale = localeOf(owner?.attributes.locale) ?? body.locale;
          await deps.mailer.sendSignupAttempt(email, { login: `${base}/login`, forgot: `${base}/forgot-password` }, locale);
        });
        return log.info({ email, sent }, sent ? 'sign-up with an address in use; owner told' : 'sign-up attempt mail skipped: cooldown');
      }
      context.userId = id;
      log.info({ userId: id, role }, 'account registered');
      // A mail sent to this address within the cooldown holds this one back; "Resend verification" works after it.
      if (!(await deps.cooldown.sendOnce(email, () => deps.accounts.sendVerifyEmail(id)))) {
        log.info({ userId: id }, 'verification mail skipped: cooldown');
      }
    });
  }

  const responses = { 201: Message, 400: Type.Ref('ErrorResponse'), 429: Type.Ref('ErrorResponse') };
  const description =
    'Answers 201 for every valid form, whether or not the address has an account: the account is created, ' +
    "and Keycloak's verification mail sent, after the answer; an address that already has an account gets a mail telling its owner. " +
    PROOF_DESCRIPTION;

  app.post(
    '/api/auth/signup/buyer',
    {
      onRequest: deps.gate,
      config: { rateLimit: false },
      attachValidation: true,
      schema: { summary: 'Create a buyer account', description, headers: ProofHeaders, body: BuyerSignup, response: responses },
    },
    async (request, reply) => {
      rejectInvalidBody(request);
      register(request.body, 'buyer', request.log);
      return reply.code(201).send({ message: REGISTRATION_SUCCESSFUL });
    },
  );

  app.post(
    '/api/auth/signup/farmer',
    {
      onRequest: deps.gate,
      config: { rateLimit: false },
      attachValidation: true,
      schema: { summary: 'Create a farmer account', description, headers: ProofHeaders, body: FarmerSignup, response: responses },
    },
    async (request, reply) => {
      rejectInvalidBody(request);
      register(request.body, 'farmer', request.log);
      return reply.code(201).send({ message: REGISTRATION_SUCCESSFUL });
    },
  );
}
