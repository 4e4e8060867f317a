// Work a route starts but does not wait for. The answers of "forgot password" and "resend
// verification" must not depend on whether the account exists, so looking the account up and
// sending its mail happen after the answer has gone. Nobody awaits that work, so its failures are
// logged here (an unhandled rejection would bring the process down) and never thrown.
import type { FastifyBaseLogger } from 'fastify';

/** Facts about the work that make a failure actionable; the task adds to it as it learns more. */
export type WorkContext = Record<string, unknown>;

export class BackgroundWork {
  readonly #running = new Set<Promise<void>>();

  /** Starts `task` now, on the next tick. If it fails, `"<what> failed"` is logged with the error and the context. */
  start(log: FastifyBaseLogger, what: string, context: WorkContext, task: (context: WorkContext) => Promise<void>): void {
    const running: Promise<void> = Promise.resolve()
      .then(() => task(context))
      .catch((err: unknown) => log.error({ err, ...context }, `${what} failed`))
      .finally(() => this.#running.delete(running));
    this.#running.add(running);
  }

  /** How many tasks are still running. */
  get pending(): number {
    return this.#running.size;
  }

  /** Resolves once everything started so far (and anything it started) has finished: shutdown waits for it. */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }
}
