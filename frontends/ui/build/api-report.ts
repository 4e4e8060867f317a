// The public API of the front ends' shared packages as reviewed files (docs/adr/0054): Microsoft's API
// Extractor reads each entry point's declarations and writes frontends/<package>/api/<report>.api.md.
//   npx tsx frontends/ui/build/api-report.ts           check: fails when an API changed and its report was not updated
//   npx tsx frontends/ui/build/api-report.ts --update  writes the reports (then review the diff and the version)
// Node-only. The declarations are emitted first with the project's own TypeScript into .run/api/.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';

const frontends = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const root = path.resolve(frontends, '..');

/** Each report: its package folder, the entry's declaration (relative to the package's emitted folder) and its name. */
export const API_REPORTS = [
  { pkg: 'shell-contract', entry: 'index.d.ts', report: 'shell-contract' },
  { pkg: 'shell-contract', entry: 'router.d.ts', report: 'shell-contract-router' },
  { pkg: 'ui', entry: 'index.d.ts', report: 'ui' },
] as const;

export interface ReportResult {
  report: string;
  file: string;
  changed: boolean;
  messages: string[];
}

function emitDeclarations(pkg: string): string {
  const out = path.join(root, '.run/api', pkg);
  fs.rmSync(out, { recursive: true, force: true });
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(frontends, pkg, 'tsconfig.api.json')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return out;
}

export function apiReports({ update = false } = {}): ReportResult[] {
  const emitted = new Map<string, string>();
  return API_REPORTS.map(({ pkg, entry, report }) => {
    if (!emitted.has(pkg)) emitted.set(pkg, emitDeclarations(pkg));
    const packageDir = path.join(frontends, pkg);
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: packageDir,
        mainEntryPointFilePath: path.join(emitted.get(pkg)!, entry),
        compiler: { overrideTsconfig: { compilerOptions: { lib: ['ES2023', 'DOM'], skipLibCheck: true, jsx: 'react-jsx', module: 'ESNext', moduleResolution: 'Bundler' } } },
        apiReport: { enabled: true, reportFileName: `${report}.api.md`, reportFolder: path.join(packageDir, 'api'), reportTempFolder: path.join(root, '.run/api/temp') },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          // Only what changes the contract matters here; missing release tags and doc-comment style do not.
          extractorMessageReporting: { default: { logLevel: 'none' as ExtractorLogLevel }, 'ae-forgotten-export': { logLevel: 'none' as ExtractorLogLevel } },
          tsdocMessageReporting: { default: { logLevel: 'none' as ExtractorLogLevel } },
          compilerMessageReporting: { default: { logLevel: 'warning' as ExtractorLogLevel } },
        },
      },
      configObjectFullPath: path.join(packageDir, 'api', `${report}.api-extractor.json`),
      packageJsonFullPath: path.join(packageDir, 'package.json'),
    });
    const messages: string[] = [];
    const result = Extractor.invoke(config, {
      localBuild: update,
      showVerboseMessages: false,
      messageCallback: (message) => {
        if (message.logLevel === 'warning' || message.logLevel === 'error') messages.push(message.formatMessageWithLocation(packageDir));
        message.handled = true;
      },
    });
    return { report, file: path.relative(root, path.join(packageDir, 'api', `${report}.api.md`)), changed: result.apiReportChanged, messages };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const update = process.argv.includes('--update');
  let failed = false;
  for (const result of apiReports({ update })) {
    result.messages.forEach((message) => console.log(`  ${message}`));
    if (result.changed && !update) {
      failed = true;
      console.log(`${result.report}: the public API changed and ${result.file} was not updated (run with --update, review the diff, bump the version)`);
    } else console.log(`${result.report}: ${result.changed ? 'report updated' : 'unchanged'} (${result.file})`);
  }
  process.exitCode = failed ? 1 : 0;
}
