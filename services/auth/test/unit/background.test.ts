import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { BackgroundWork } from '../../src/background.js';

/** A logger that keeps what it is given (the log sink is the edge being checked). */
function recordingLog() {
  const errors: { fields: Record<string, unknown>; message: string }[] = [];
  const log = {
    error: (fields: Record<string, unknown>, message: string) => errors.push({ fields, message }),
  } as unknown as FastifyBaseLogger;
  return { log, errors };
}

describe('background work', () => {
  it('runs after the caller has moved on', async () => {
    const work = new BackgroundWork();
    const steps: string[] = [];
    work.start(recordingLog().log, 'mail', {}, async () => {
      steps.push('task');
    });
    steps.push('answer');
    await work.settled();
    expect(steps).toEqual(['answer', 'task']);
  });

  it('logs a failure with the context the task gathered, and never rejects', async () => {
    const work = new BackgroundWork();
    const { log, errors } = recordingLog();
    const failure = new Error('SMTP connection refused');
    work.start(log, 'password reset mail', { email: 'ada@farm.ng' }, async (context) => {
      context.userId = 'user-1';
      throw failure;
    });
    work.start(log, 'verification mail', { email: 'bola@farm.ng' }, () => {
      throw new Error('thrown before any await');
    });
    await expect(work.settled()).resolves.toBeUndefined();
    expect(errors).toHaveLength(2);
    expect(errors).toEqual(
      expect.arrayContaining([
        { message: 'password reset mail failed', fields: { err: failure, email: 'ada@farm.ng', userId: 'user-1' } },
        { message: 'verification mail failed', fields: { err: expect.any(Error), email: 'bola@farm.ng' } },
      ]),
    );
    expect(work.pending).toBe(0);
  });

  it('settles only when work started by other work has finished too', async () => {
    const work = new BackgroundWork();
    const { log } = recordingLog();
    let done = false;
    work.start(log, 'outer', {}, async () => {
      work.start(log, 'inner', {}, async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        done = true;
      });
    });
    await work.settled();
    expect(done).toBe(true);
  });
});
