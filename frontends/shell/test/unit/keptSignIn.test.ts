import { describe, expect, it } from 'vitest';
import { claimsOf } from '../../src/session/keptSignIn.js';

const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const token = (claims: object) => `${b64url('{"alg":"RS256"}')}.${b64url(JSON.stringify(claims))}.signature`;

describe('the claims of a kept access token', () => {
  it('reads the payload, keeping non-ASCII letters of names', () => {
    expect(claimsOf(token({ sub: 'u-1', given_name: 'Adéwálé', family_name: 'Ọlọ́runfẹ́mi', user_type: 'buyer' }))).toEqual({
      sub: 'u-1',
      given_name: 'Adéwálé',
      family_name: 'Ọlọ́runfẹ́mi',
      user_type: 'buyer',
    });
  });
  it('reads payloads whose base64url needs padding back', () => {
    for (const name of ['A', 'Ab', 'Abc', 'Abcd']) expect(claimsOf(token({ sub: name }))?.sub).toBe(name);
  });
  it('answers undefined for what is not a token', () => {
    expect(claimsOf('not-a-token')).toBeUndefined();
    expect(claimsOf('a.%%%.c')).toBeUndefined();
    expect(claimsOf(`x.${b64url('[1,2]')}.y`)).toBeUndefined();
  });
});
