// Sign-up rules and their messages (spec §5) at the routes, against the real Keycloak and Mailpit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE_E164_PROBLEM as PHONE_PROBLEM } from '@tuber/contracts';
import { deleteAccount } from '../../../../test/support/accounts.js';
import { mailCount, waitForMail } from '../../../../test/support/mail.js';
import { authApp, commonPassword, keycloakUsersByEmail, post, uniqueEmail, type TestApp } from './support.js';

const REGISTRATION_SUCCESSFUL = 'Registration successful! Please verify your email.';
const PASSWORD_TOO_COMMON = 'This password is too common and easy to guess. Choose another one.';
const TUBER_PROBLEM = 'Choose the tubers you grow from: yam, cassava, potato, sweet potato, tumeric, garlic, ginger (each at most once).';

let auth: TestApp;
const registered: string[] = [];
beforeAll(async () => {
  auth = await authApp();
});
afterAll(async () => {
  await auth?.app.close();
  for (const email of registered) for (const user of await keycloakUsersByEmail(email)) await deleteAccount(user.id!);
});

const buyer = (overrides: Record<string, unknown> = {}) => ({
  firstname: 'Bola',
  lastname: 'Ade',
  email: uniqueEmail('buyer'),
  phone: '0803 000 0000',
  password: 'yam-harvest-1',
  confirm_password: 'yam-harvest-1',
  ...overrides,
});
const farmer = (overrides: Record<string, unknown> = {}) => ({
  ...buyer(),
  email: uniqueEmail('farmer'),
  business_name: 'Ada Farms',
  location: 'Ibadan',
  tuber: ['yam', 'cassava'],
  ...overrides,
});

async function signup(role: 'buyer' | 'farmer', body: Record<string, unknown>) {
  const answer = await post(auth.app, `/api/auth/signup/${role}`, body);
  return { status: answer.statusCode, message: answer.json().message as string };
}

/** Refused with this message, and no account was made. */
async function expectRefused(role: 'buyer' | 'farmer', body: Record<string, unknown>, message: string) {
  expect(await signup(role, body)).toEqual({ status: 400, message });
  if (typeof body.email === 'string' && body.email.includes('@')) expect(await keycloakUsersByEmail(body.email)).toEqual([]);
}

describe('sign-up that succeeds', () => {
  it('creates a buyer and sends the verification mail', async () => {
    const body = buyer();
    registered.push(body.email);
    expect(await signup('buyer', body)).toEqual({ status: 201, message: REGISTRATION_SUCCESSFUL });
    await auth.background.settled();
    await waitForMail(body.email, /verif/i);
    const [user] = await keycloakUsersByEmail(body.email);
    expect(user).toMatchObject({
      firstName: 'Bola',
      lastName: 'Ade',
      emailVerified: false,
      // The phone in Nigerian E.164 digits, whatever form was typed (issue 12).
      attributes: { user_type: ['buyer'], pending_profile: ['true'], phone: ['2348030000000'] },
    });
  });

  it('creates a farmer with any of the seven tubers, or none', async () => {
    const all = farmer({ tuber: ['yam', 'cassava', 'potato', 'sweet potato', 'tumeric', 'garlic', 'ginger'] });
    const { tuber: _none, ...none } = farmer();
    registered.push(all.email, none.email);
    expect(await signup('farmer', all)).toEqual({ status: 201, message: REGISTRATION_SUCCESSFUL });
    expect(await signup('farmer', none)).toEqual({ status: 201, message: REGISTRATION_SUCCESSFUL });
    await auth.background.settled();
    const [withAll] = await keycloakUsersByEmail(all.email);
    expect(withAll?.attributes).toMatchObject({
      user_type: ['farmer'],
      business_name: ['Ada Farms'],
      location: ['Ibadan'],
      tuber: all.tuber,
    });
    const [withNone] = await keycloakUsersByEmail(none.email);
    expect(withNone?.attributes?.tuber ?? []).toEqual([]);
  });
});

describe('sign-up rules', () => {
  it('says "Passwords do not match!" and sends nothing', async () => {
    for (const [role, body] of [
      ['buyer', buyer({ confirm_password: 'yam-harvest-2' })],
      ['farmer', farmer({ confirm_password: 'yam-harvest-2' })],
    ] as const) {
      await expectRefused(role, body, 'Passwords do not match!');
      expect(await mailCount(body.email)).toBe(0);
    }
  });

  it('says "Password must be at least 8 characters long" below 8', async () => {
    await expectRefused(
      'buyer',
      buyer({ password: 'abc1234', confirm_password: 'abc1234' }),
      'Password must be at least 8 characters long',
    );
    await expectRefused(
      'farmer',
      farmer({ password: 'abc1234', confirm_password: 'abc1234' }),
      'Password must be at least 8 characters long',
    );
  });

  it('refuses the e-mail address as the password (as Keycloak would), before answering', async () => {
    const email = uniqueEmail('buyer');
    await expectRefused('buyer', buyer({ email, password: email, confirm_password: email }), 'Password cannot be your e-mail address.');
  });

  it("refuses a password on Keycloak's common-password list, before answering", async () => {
    const common = await commonPassword();
    await expectRefused('buyer', buyer({ password: common, confirm_password: common }), PASSWORD_TOO_COMMON);
    await expectRefused('farmer', farmer({ password: common.toUpperCase(), confirm_password: common.toUpperCase() }), PASSWORD_TOO_COMMON);
  });

  it('asks for a valid e-mail address', async () => {
    for (const email of ['not-an-email', 'two@@signs.ng', 'space in@farm.ng', '']) {
      await expectRefused('buyer', buyer({ email }), 'Enter a valid e-mail address.');
    }
  });

  it('asks for a Nigerian phone number', async () => {
    for (const phone of ['call me', '12345', '+234 803 000 0000 0000 0', '0803-000-000x', '+44 20 7946 0958', '0803 000 000']) {
      await expectRefused('buyer', buyer({ phone }), PHONE_PROBLEM);
    }
    await expectRefused('farmer', farmer({ phone: 'none' }), PHONE_PROBLEM);
  });

  it('refuses fields that are empty or only spaces', async () => {
    await expectRefused('buyer', buyer({ firstname: '   ' }), 'First name cannot be empty.');
    await expectRefused('buyer', buyer({ lastname: '' }), 'Last name cannot be empty.');
    await expectRefused('farmer', farmer({ business_name: ' \t ' }), 'Farm / business name cannot be empty.');
    await expectRefused('farmer', farmer({ location: '  ' }), 'Farm location cannot be empty.');
    await expectRefused('buyer', buyer({ password: '', confirm_password: '' }), 'Password cannot be empty.');
  });

  it('refuses over-long fields', async () => {
    await expectRefused('buyer', buyer({ firstname: 'A'.repeat(61) }), 'First name must be at most 60 characters.');
    await expectRefused('farmer', farmer({ location: 'L'.repeat(201) }), 'Farm location must be at most 200 characters.');
  });

  it('names a missing buyer field', async () => {
    for (const field of ['firstname', 'lastname', 'email', 'phone', 'password', 'confirm_password']) {
      const { [field as 'email']: _omitted, ...body } = buyer();
      await expectRefused('buyer', body, `body: "${field}" is required.`);
    }
  });

  it('names a missing farmer field', async () => {
    for (const field of ['business_name', 'location', 'phone']) {
      const { [field as 'location']: _omitted, ...body } = farmer();
      await expectRefused('farmer', body, `body: "${field}" is required.`);
    }
  });

  it('accepts only the seven tubers, each once', async () => {
    for (const tuber of [['banana'], ['yam', 'plantain'], ['Yam'], ['yam', 'yam']]) {
      await expectRefused('farmer', farmer({ tuber }), TUBER_PROBLEM);
    }
  });

  it('names a field the form does not have', async () => {
    await expectRefused('buyer', buyer({ user_type: 'farmer' }), 'body: unknown field "user_type".');
    await expectRefused('buyer', buyer({ business_name: 'Not a farmer' }), 'body: unknown field "business_name".');
  });
});
