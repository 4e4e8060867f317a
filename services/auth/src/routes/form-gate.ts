// The onRequest hook of the account forms (docs/adr/0068): counts the post per address and form before the
// body is even read, and answers 429 PROOF_REQUIRED with a challenge once the address is busy. The app
// solves it and sends the same post again with the proof (frontends/landing/src/domain/proof.ts).
import { Type } from '@sinclair/typebox';
import { PROOF_HEADER } from '@tuber/contracts';
import { ANSWERS, HttpError, LIMITS_UNAVAILABLE, problem, unavailable } from '@tuber/kit';
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { FormGate } from '../domain/form-gate.js';

export const PROOF_REQUIRED_MESSAGE =
  'Many requests to this form came from your network, so this one needs a short check by your device first. ' +
  `The app does it by itself; other clients solve params.challenge (ALTCHA v2) and send the proof in the ${PROOF_HEADER} header.`;

export const PROOF_DESCRIPTION =
  `Past a few posts a minute from one address, a post is taken only with a proof of work in the ${PROOF_HEADER} header: ` +
  'the answer is 429 PROOF_REQUIRED with the challenge in params.challenge (docs/adr/0068). Past a ceiling of proven posts per address the answer is 429 RATE_LIMITED; while the counts cannot be kept, 503.';

/** The header a route declares (the gate reads it before validation; a bad one only earns a new challenge). */
export const ProofHeaders = Type.Object({
  [PROOF_HEADER]: Type.Optional(
    Type.String({ maxLength: 4096, description: 'a solved proof of work, after a 429 PROOF_REQUIRED (docs/adr/0068)' }),
  ),
});

export function formGateHook(gate: FormGate): onRequestAsyncHookHandler {
  const hook = async (request: FastifyRequest) => {
    const form = `${request.method}${request.routeOptions.url ?? request.url}`;
    const header = request.headers[PROOF_HEADER];
    const proof = typeof header === 'string' && header !== '' ? header : undefined;
    let admission: Awaited<ReturnType<FormGate['admit']>>;
    try {
      admission = await gate.admit(form, request.ip, proof);
    } catch (err) {
      request.log.error({ err, form }, 'account form refused: its limits could not be counted');
      throw unavailable('LIMITS_UNAVAILABLE', LIMITS_UNAVAILABLE);
    }
    if (admission.kind === 'free') return;
    if (admission.kind === 'proven') {
      request.log.info({ form }, 'account form taken with a proof of work');
      return;
    }
    if (admission.kind === 'ceiling') {
      request.log.warn({ form }, 'account form refused: the address is past its ceiling');
      throw new HttpError(
        429,
        problem('RATE_LIMITED', `Too many attempts. Please wait ${admission.seconds} seconds and try again.`, { seconds: admission.seconds }),
        { 'retry-after': String(admission.seconds) },
      );
    }
    request.log.info({ form, level: admission.level, reason: admission.reason }, 'account form asks for a proof of work');
    throw new HttpError(429, problem('PROOF_REQUIRED', PROOF_REQUIRED_MESSAGE, { challenge: admission.challenge }));
  };
  return Object.assign(hook, { [ANSWERS]: [429, 503] });
}
