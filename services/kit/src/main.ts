// The entry point shape every service's server.ts uses: validate config, build the app, serve.
import type { Static, TObject } from '@sinclair/typebox';
import type { ServiceApp } from './app.js';
import { BaseConfig, loadConfig } from './config.js';

type Runnable = Static<typeof BaseConfig> & { PORT: number };
import { runService } from './run.js';

export async function startService<S extends TObject>(
  schema: S,
  build: (config: Static<S> & Runnable) => Promise<ServiceApp>,
): Promise<void> {
  let config: Static<S> & Runnable;
  try {
    config = loadConfig(schema) as Static<S> & Runnable;
  } catch (err) {
    console.error(`Configuration error: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(78);
  }
  const app = await build(config);
  await runService(app, { host: config.HOST, port: config.PORT, graceMs: config.SHUTDOWN_GRACE_MS });
}
