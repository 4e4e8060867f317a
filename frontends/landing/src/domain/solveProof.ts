// The phone's side of the proof of work (docs/adr/0068): solves an ALTCHA v2 challenge with WebCrypto's PBKDF2
// (native, so a phone pays about what an attacker's own code would) and encodes the proof for PROOF_HEADER.
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';

const fromBase64url = (text: string) => {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
};
const toBase64url = (text: string) => {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
};

/** Longest a phone works on one challenge before the form gives up (the challenge itself lives 5 minutes). */
export const SOLVE_TIMEOUT_MS = 60_000;

export async function solveProof(challengeParam: string, signal: AbortSignal): Promise<string> {
  const challenge = JSON.parse(fromBase64url(challengeParam)) as Challenge;
  const controller = new AbortController();
  signal.addEventListener('abort', () => controller.abort(), { once: true });
  const solution = await solveChallenge({ challenge, deriveKey, controller, timeout: SOLVE_TIMEOUT_MS });
  if (!solution) throw new Error(signal.aborted ? 'The check was stopped.' : 'The check took too long.');
  return toBase64url(JSON.stringify({ challenge, solution }));
}
