// Telemetry starts first (docs/adr/0037): the rest is imported only after the SDK has hooked the
// modules it instruments, which static imports (all loaded before any code runs) would have missed.
import { startTelemetry } from '@tuber/kit/telemetry';

await startTelemetry({ serviceName: 'moderation' });
const { startService } = await import('@tuber/kit');
const { buildApp } = await import('./app.js');
const { ModerationConfig } = await import('./config.js');

await startService(ModerationConfig, buildApp);
