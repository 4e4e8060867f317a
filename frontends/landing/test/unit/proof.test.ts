// sendWithProof (docs/adr/0068): a PROOF_REQUIRED answer is solved and the same post sent again with the proof;
// every other error, a shell too old to pass the challenge, and a third challenge come back as they were.
import { PROOF_HEADER } from '@tuber/contracts';
import { ApiError } from '@tuber/shell-contract';
import { describe, expect, it, vi } from 'vitest';
import { proofChallenge, sendWithProof, type ProofSend } from '../../src/domain/proof.js';

const asked = (challenge = 'c1') => new ApiError(429, 'Too Many Requests', 'needs a check', { code: 'PROOF_REQUIRED', params: { challenge } });

function scripted(answers: (unknown | Error)[]) {
  const seen: (RequestInit | undefined)[] = [];
  const send: ProofSend<unknown> = async (init) => {
    seen.push(init);
    const next = answers.shift();
    if (next instanceof Error) throw next;
    return next;
  };
  return { send, seen };
}

describe('sendWithProof', () => {
  it('solves the challenge and sends the same post again with the proof in its header', async () => {
    const { send, seen } = scripted([asked('abc'), { message: 'ok' }]);
    const checking: boolean[] = [];
    const solve = vi.fn(async (challenge: string) => `solved:${challenge}`);
    const answer = await sendWithProof(send, { onChecking: (c) => checking.push(c), signal: new AbortController().signal, solve });
    expect(answer).toEqual({ message: 'ok' });
    expect(solve).toHaveBeenCalledWith('abc', expect.any(AbortSignal));
    expect(seen).toEqual([undefined, { headers: { [PROOF_HEADER]: 'solved:abc' } }]);
    expect(checking).toEqual([true, false]);
  });

  it('passes any other error on untouched, without solving', async () => {
    const refusal = new ApiError(400, 'Bad Request', 'Invalid email', { code: 'EMAIL_INVALID' });
    const solve = vi.fn(async () => 'x');
    await expect(sendWithProof(scripted([refusal]).send, { onChecking: () => undefined, signal: new AbortController().signal, solve })).rejects.toBe(refusal);
    expect(solve).not.toHaveBeenCalled();
  });

  it('gives up after two challenges, with the last answer', async () => {
    const third = asked('c3');
    const solve = vi.fn(async () => 'x');
    const { send, seen } = scripted([asked('c1'), asked('c2'), third]);
    await expect(sendWithProof(send, { onChecking: () => undefined, signal: new AbortController().signal, solve })).rejects.toBe(third);
    expect(seen).toHaveLength(3);
    expect(solve).toHaveBeenCalledTimes(2);
  });

  it('reads no challenge from an error made by a shell of contract 1.0 (no params) or another code', () => {
    expect(proofChallenge(new ApiError(429, 'Too Many Requests', 'm'))).toBeUndefined();
    expect(proofChallenge(new ApiError(429, 'Too Many Requests', 'm', { code: 'RATE_LIMITED', params: { seconds: 5 } }))).toBeUndefined();
    expect(proofChallenge(asked('xyz'))).toBe('xyz');
  });

  it('stops when the form is left (aborted) instead of solving', async () => {
    const controller = new AbortController();
    controller.abort();
    const challenge = asked();
    const solve = vi.fn(async () => 'x');
    await expect(sendWithProof(scripted([challenge]).send, { onChecking: () => undefined, signal: controller.signal, solve })).rejects.toBe(challenge);
    expect(solve).not.toHaveBeenCalled();
  });
});
