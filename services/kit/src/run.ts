// Starts a built service app and shuts it down gracefully: stop accepting, drain requests and
// consumers (through onClose hooks), then exit; a second signal or the grace period forces it.
import closeWithGrace from 'close-with-grace';
import type { ServiceApp } from './app.js';

export async function runService(app: ServiceApp, options: { host: string; port: number; graceMs: number }): Promise<void> {
  closeWithGrace({ delay: options.graceMs }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an unexpected error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });
  await app.listen({ host: options.host, port: options.port });
}
