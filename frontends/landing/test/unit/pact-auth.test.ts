// Consumer-driven contract (Pact) of the landing remote with the auth service: a buyer's sign-up, the forgot-password
// mail and the reset link's check, each body built by the page's own code and sent without a token (guests' pages).
// Mock server only; contracts/pacts/landing-auth.json must agree with what these tests ask for.
import { MatchersV3, PactV3 } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@tuber/ui';
import { pactDir, pactDrift } from '../../../../test/support/pact-files.js';
import { signupBody } from '../../src/account/SignupForm.js';
import {
  NO_ACTIVE_SESSION,
  REGISTRATION_SUCCESSFUL,
  RESET_LINK_SENT,
  resetTokenFrom,
  signupPasswordProblem,
} from '../../src/domain/rules.js';
import { forgotPasswordBody } from '../../src/exposed/ForgotPasswordPage.js';
import { resetCheckBody } from '../../src/exposed/ResetPasswordPage.js';

const { string, regex, fromProviderState } = MatchersV3;
const dir = pactDir();
const pact = new PactV3({ consumer: 'landing', provider: 'auth', dir, logLevel: 'error' });
afterAll(() => expect(pactDrift(dir, 'landing-auth.json')).toBeNull());

/** A guest: no token, so no authorization header. */
const api = (baseUrl: string) => createApiClient({ baseUrl: `${baseUrl}/api` });

describe('pact: landing → auth', () => {
  it('signs a buyer up', async () => {
    const form = {
      firstname: 'Ada',
      lastname: 'Okafor',
      business_name: '',
      location: '',
      email: 'new.buyer@example.test',
      phone: '0803 123 4567',
      password: 'Harvest-moon-over-Oyo-42',
      confirm_password: 'Harvest-moon-over-Oyo-42',
    };
    // The page's own check before it sends (the service checks the same, and common passwords).
    expect(signupPasswordProblem(form.password, form.confirm_password)).toBeUndefined();
    const body = signupBody('buyer', form, [], 'en');
    pact
      .given('an email address no one uses')
      .uponReceiving('a buyer sign-up with an unused address')
      .withRequest({
        method: 'POST',
        path: '/api/auth/signup/buyer',
        headers: { accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        body: { ...body, email: fromProviderState('${email}', body.email) },
      })
      .willRespondWith({ status: 201, body: { message: string(REGISTRATION_SUCCESSFUL) } });
    await pact.executeTest(async (server) => {
      const answer = await api(server.url).post<{ message?: string }>('/auth/signup/buyer', body);
      // In English the toast is the server's sentence.
      expect(answer.message).toBe(REGISTRATION_SUCCESSFUL);
    });
  });

  it('asks for a password reset link', async () => {
    // The answer is the same whether or not the address has an account; this one has none.
    const body = forgotPasswordBody('nobody.here@example.test', 'en');
    pact
      .uponReceiving('a password reset link asked for')
      .withRequest({
        method: 'POST',
        path: '/api/auth/password/forgot',
        headers: { accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        body,
      })
      .willRespondWith({ status: 202, body: { message: string(RESET_LINK_SENT) } });
    await pact.executeTest(async (server) => {
      const answer = await api(server.url).post<{ message?: string }>('/auth/password/forgot', body);
      expect(answer.message).toBe(RESET_LINK_SENT);
    });
  });

  it('a reset link that is not valid is refused with the one error shape', async () => {
    const token = resetTokenFrom('#token=this-link-was-never-issued');
    const body = resetCheckBody(token!);
    pact
      .uponReceiving('a reset link check with a token that is not valid')
      .withRequest({
        method: 'POST',
        path: '/api/auth/password/reset/check',
        headers: { accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        body,
      })
      .willRespondWith({ status: 400, headers: { 'content-type': regex('application/(problem\\+)?json.*', 'application/problem+json; charset=utf-8') }, body: { code: 'RESET_LINK_INVALID', statusCode: 400, error: string('Bad Request'), message: string(NO_ACTIVE_SESSION) } });
    await pact.executeTest(async (server) => {
      // The page shows a 400's message and sends the person to /forgot-password.
      await expect(api(server.url).post('/auth/password/reset/check', body)).rejects.toMatchObject({
        statusCode: 400,
        message: NO_ACTIVE_SESSION,
      });
    });
  });
});
