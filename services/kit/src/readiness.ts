// Readiness: every dependency a service has registers a check; /ready runs them all.
export type ReadinessCheck = () => Promise<void>;

export interface CheckResult {
  ok: boolean;
  error?: string;
}

export class Readiness {
  readonly #checks = new Map<string, ReadinessCheck>();

  constructor(private readonly timeoutMs = 2_000) {}

  add(dependency: string, check: ReadinessCheck): void {
    this.#checks.set(dependency, check);
  }

  get dependencies(): string[] {
    return [...this.#checks.keys()];
  }

  async run(): Promise<{ ready: boolean; checks: Record<string, CheckResult> }> {
    const entries = await Promise.all(
      [...this.#checks].map(async ([name, check]): Promise<[string, CheckResult]> => {
        try {
          await withTimeout(check(), this.timeoutMs, `${name} did not answer within ${this.timeoutMs} ms`);
          return [name, { ok: true }];
        } catch (err) {
          return [name, { ok: false, error: err instanceof Error ? err.message : String(err) }];
        }
      }),
    );
    return { ready: entries.every(([, r]) => r.ok), checks: Object.fromEntries(entries) };
  }
}

async function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
