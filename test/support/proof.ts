// What the app does with a 429 PROOF_REQUIRED (docs/adr/0068): solve the challenge in params.challenge and
// send the same post again with the proof in the PROOF_HEADER. Node's PBKDF2 here, WebCrypto's in the browser.
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';

/** The header value for a solved challenge (as received in params.challenge), and the counter it took. */
export async function solveProof(challengeParam: string): Promise<{ header: string; counter: number }> {
  const challenge = JSON.parse(Buffer.from(challengeParam, 'base64url').toString('utf8')) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the proof-of-work challenge could not be solved in time');
  return { header: Buffer.from(JSON.stringify({ challenge, solution }), 'utf8').toString('base64url'), counter: solution.counter };
}
