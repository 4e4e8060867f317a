// The OpenAPI document of every service as it serves it (/api/<name>/openapi.json through the gateway), kept in
// contracts/openapi/<name>.json with sorted keys so a change shows as a small diff. The breaking-change check
// (test/system/openapi-compat.test.ts, oasdiff) compares today's with the last release's (docs/delivery.md).
//   npx tsx infra/release/openapi-snapshots.ts           write the snapshots (make openapi)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVICE_NAMES = fs
  .readdirSync(path.join(root, 'services'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'kit')
  .map((entry) => entry.name)
  .sort();
export const snapshotFile = (service: string) => path.join(root, 'contracts/openapi', `${service}.json`);

/** The value with every object's keys in order, so two runs write the same bytes. */
export function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export async function servedDocument(gateway: string, service: string): Promise<string> {
  const answer = await fetch(`${gateway}/api/${service}/openapi.json`);
  if (answer.status !== 200) throw new Error(`${gateway}/api/${service}/openapi.json answered ${answer.status}: is the stack up (make up)?`);
  return `${JSON.stringify(sortedKeys(await answer.json()), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const gateway = (process.env.PUBLIC_URL ?? 'http://localhost:8080').replace(/\/$/, '');
  for (const service of SERVICE_NAMES) {
    fs.writeFileSync(snapshotFile(service), await servedDocument(gateway, service));
    console.log(`contracts/openapi/${service}.json`);
  }
}
