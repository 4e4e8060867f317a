import { describe, expect, it } from 'vitest';
import { sessionFromToken } from '../../src/standalone/tokenSession.js';

const token = (claims: Record<string, unknown>) => `header.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.signature`;
const now = new Date('2026-11-23T12:00:00Z');
const exp = now.getTime() / 1000 + 300;

describe('standalone dev session from a pasted access token', () => {
  it('reads the farmer and their tubers from the claims', () => {
    const session = sessionFromToken(
      token({
        sub: 'u1',
        email: 'ada@farm.ng',
        email_verified: true,
        given_name: 'Adá',
        family_name: 'Obi',
        phone: '+234',
        user_type: 'farmer',
        business_name: 'Ada Farms',
        location: 'Ibadan',
        tuber: ['yam', 'sweet potato'],
        exp,
      }),
      now,
    );
    expect(session).toEqual({
      status: 'signed-in',
      user: {
        id: 'u1',
        email: 'ada@farm.ng',
        emailVerified: true,
        firstname: 'Adá',
        lastname: 'Obi',
        phone: '+234',
        userType: 'farmer',
        businessName: 'Ada Farms',
        location: 'Ibadan',
        tuber: ['yam', 'sweet potato'],
      },
    });
  });
  it('accepts a single tuber claim', () => {
    const session = sessionFromToken(token({ sub: 'u1', user_type: 'farmer', tuber: 'ginger', exp }), now);
    expect(session.status === 'signed-in' && session.user.tuber).toEqual(['ginger']);
  });
  it('is anonymous without a token, with garbage, or when the token has expired', () => {
    expect(sessionFromToken(null, now)).toEqual({ status: 'anonymous' });
    expect(sessionFromToken('not-a-jwt', now)).toEqual({ status: 'anonymous' });
    expect(sessionFromToken(token({ sub: 'u1', exp: now.getTime() / 1000 - 1 }), now)).toEqual({ status: 'anonymous' });
  });
});
