// The time a service stamps on what it records and publishes (a request's sending and answers, a product's posting
// and edits). In production it is the machine's clock. `make seed-market` (issue 27, docs/adr/0072) replays a year
// of the market through the real API in minutes, so on the local stack the services read an offset from the file
// SIMULATED_CLOCK_FILE ({"offset_ms": -31449600000} puts them 52 weeks back); no file, or an unreadable one, is no
// offset. Only stamps go through this clock: token expiry, rate limits, leases and Redis keys keep real time.
// Only infra/local/app.sh sets it; docker-compose.yml and the Helm chart never do (test/unit/simulated-clock.test.ts).
import fs from 'node:fs';

const file = process.env.SIMULATED_CLOCK_FILE || undefined;

/** How often the file is looked at again: the seeder waits longer than this after each move. */
export const CLOCK_FILE_READ_MS = 100;
let offsetMs = 0;
let readAt = 0;

function offset(): number {
  if (!file) return 0;
  const real = Date.now();
  if (real - readAt < CLOCK_FILE_READ_MS) return offsetMs;
  readAt = real;
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { offset_ms?: unknown };
    offsetMs = typeof parsed.offset_ms === 'number' && Number.isFinite(parsed.offset_ms) ? parsed.offset_ms : 0;
  } catch {
    offsetMs = 0;
  }
  return offsetMs;
}

/** Now, as records and events are stamped with it. */
export function now(): Date {
  return new Date(Date.now() + offset());
}

/** Whether the clock is simulated at all (the file is set), for a log line at start. */
export const simulatedClock = (): string | undefined => file;
