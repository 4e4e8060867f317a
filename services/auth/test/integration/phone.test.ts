// Issue 12: phone numbers are kept in Nigerian E.164 digits. Sign-up through the gateway, against
// the running auth service and Keycloak: a buyer's and a farmer's number typed in the national form
// (0803…) is stored as 234…; a UK number is refused with the sentence saying what to type, and no
// account is made.
import { afterAll, describe, expect, it } from 'vitest';
import { PHONE_E164_PROBLEM } from '@tuber/contracts';
import { api, eventually } from '../../../../test/support/api.js';
import { deleteAccount } from '../../../../test/support/accounts.js';
import { keycloakUsersByEmail, uniqueEmail } from './support.js';

const registered: string[] = [];
afterAll(async () => {
  for (const email of registered) for (const user of await keycloakUsersByEmail(email)) await deleteAccount(user.id!);
});

const buyer = (phone: string) => ({
  firstname: 'Kemi',
  lastname: 'Bello',
  email: uniqueEmail('buyer'),
  phone,
  password: 'pounded-yam-7',
  confirm_password: 'pounded-yam-7',
});
const farmer = (phone: string) => ({
  ...buyer(phone),
  email: uniqueEmail('farmer'),
  business_name: 'Bello Farms',
  location: 'Saki',
  tuber: ['yam'],
});

/** The account Keycloak made for the address (sign-up finishes after answering). */
const accountOf = (email: string) =>
  eventually(
    () => keycloakUsersByEmail(email),
    (users) => users.length === 1,
  ).then((users) => users[0]);

describe('sign-up keeps the phone in E.164', () => {
  it('a buyer who types 0803 123 4567 is stored as 2348031234567', async () => {
    const body = buyer('0803 123 4567');
    registered.push(body.email);
    const answer = await api('POST', '/api/auth/signup/buyer', { json: body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect((await accountOf(body.email))?.attributes?.phone).toEqual(['2348031234567']);
  });

  it('a farmer who types +234 0805-555-0199 (a trunk 0 after the country code) is stored as 2348055550199', async () => {
    const body = farmer('+234 0805-555-0199');
    registered.push(body.email);
    const answer = await api('POST', '/api/auth/signup/farmer', { json: body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect((await accountOf(body.email))?.attributes?.phone).toEqual(['2348055550199']);
  });

  it('a UK number is refused with the message, for buyers and farmers, and no account is made', async () => {
    for (const [role, body] of [
      ['buyer', buyer('+44 20 7946 0958')],
      ['farmer', farmer('+44 7700 900123')],
    ] as const) {
      const answer = await api('POST', `/api/auth/signup/${role}`, { json: body });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'PHONE_INVALID', statusCode: 400, error: 'Bad Request', message: PHONE_E164_PROBLEM });
      expect(await keycloakUsersByEmail(body.email)).toEqual([]);
    }
  });
});
