// Starts a built service app and shuts it down gracefully: stop accepting, drain requests and
// consumers (through onClose hooks), then exit; a second signal or the grace period forces it.
import closeWithGrace from 'close-with-grace';
import type { ServiceApp } from './app.js';
import { shutdownTelemetry } from './observe.js';

export async function runService(app: ServiceApp, options: { host: string; port: number; graceMs: number }): Promise<void> {
  closeWithGrace({ delay: options.graceMs }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an unexpected error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    // The spans of the last requests and events, while the grace period lasts.
    await shutdownTelemetry().catch((error: unknown) => app.log.warn({ err: error }, 'telemetry did not flush on shutdown'));
  });
  await app.listen({ host: options.host, port: options.port });
}
