// Account forms on a busy network (docs/adr/0068): past a few posts a minute from one address, the auth service
// answers 429 PROOF_REQUIRED with a challenge. The form then has the phone solve it (a second or a few, shown
// as "Checking…") and sends the same post again with the proof. The solver (altcha-lib, WebCrypto's PBKDF2) is
// its own chunk, fetched only when a challenge comes.
import { useCallback, useEffect, useRef, useState } from 'react';
import { PROOF_HEADER } from '@tuber/contracts';
import { ApiError } from '@tuber/shell-contract';

/** Sends the post, with `init` carrying the proof's header when there is one. */
export type ProofSend<T> = (init?: RequestInit) => Promise<T>;
export type ProofSolver = (challenge: string, signal: AbortSignal) => Promise<string>;

/** The challenge of a PROOF_REQUIRED answer; undefined for any other error (or a shell too old to pass params). */
export function proofChallenge(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.code !== 'PROOF_REQUIRED') return undefined;
  const challenge = error.params?.challenge;
  return typeof challenge === 'string' && challenge !== '' ? challenge : undefined;
}

const solveInBrowser: ProofSolver = async (challenge, signal) => {
  const { solveProof } = await import(/* webpackChunkName: "proof-of-work" */ './solveProof.js');
  return solveProof(challenge, signal);
};

/** At most this many challenges for one post: a second comes only if the first was spent or expired meanwhile. */
export const MAX_PROOFS = 2;

/**
 * Sends, and if asked for a proof, solves it and sends again. Any other error, or a third challenge, is thrown
 * as it came. `onChecking` is true while the phone solves.
 */
export async function sendWithProof<T>(
  send: ProofSend<T>,
  options: { onChecking: (checking: boolean) => void; signal: AbortSignal; solve?: ProofSolver },
): Promise<T> {
  let init: RequestInit | undefined;
  for (let proofs = 0; ; proofs++) {
    try {
      return await send(init);
    } catch (error) {
      const challenge = proofChallenge(error);
      if (challenge === undefined || proofs >= MAX_PROOFS || options.signal.aborted) throw error;
      options.onChecking(true);
      try {
        init = { headers: { [PROOF_HEADER]: await (options.solve ?? solveInBrowser)(challenge, options.signal) } };
      } finally {
        options.onChecking(false);
      }
    }
  }
}

/** For a form: `send` wraps its post; `checking` says the phone is solving a challenge. Ends the work on unmount. */
export function useProofSend(solve?: ProofSolver) {
  const [checking, setChecking] = useState(false);
  const controller = useRef(new AbortController());
  useEffect(() => {
    const current = new AbortController();
    controller.current = current;
    return () => {
      current.abort();
    };
  }, []);
  const send = useCallback(
    <T,>(post: ProofSend<T>) => sendWithProof(post, { onChecking: setChecking, signal: controller.current.signal, ...(solve ? { solve } : {}) }),
    [solve],
  );
  return { checking, send };
}
