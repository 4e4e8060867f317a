// Prints what Lighthouse's simulation did in one bench run, from the `lantern-*.json` file that
// `BENCH_LHR_DIR=<folder>` keeps beside each report: per simulated graph (optimistic / pessimistic LCP, FCP, …),
// every request and main-thread task in simulated start order, with its simulated and observed times (ms);
// "new conn" marks a request the simulation sent on a new connection (it pays the TCP handshake).
//   npx tsx bench/lantern-chain.ts <folder>/lantern-federated-dashboard-….json [graph label …]
import fs from 'node:fs';

interface Row {
  id: string;
  type: string;
  url?: string;
  priority?: string;
  evaluates?: string[];
  layout?: boolean;
  observedStart: number;
  observedEnd: number;
  dependsOn: string[];
  start: number;
  end: number;
  connection?: { connectionTime?: number; dnsResolutionTime?: number };
}

const [file, ...labels] = process.argv.slice(2);
if (!file) {
  console.error('usage: npx tsx bench/lantern-chain.ts <lantern-….json> [graph label …]');
  process.exit(2);
}
const graphs = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Row[]>;
const wanted = labels.length > 0 ? labels : ['optimisticLargestContentfulPaint', 'pessimisticLargestContentfulPaint'];
const tail = (text: string, length: number) => (text.length > length ? `…${text.slice(-length)}` : text);
const ms = (value: number) => String(Math.round(value)).padStart(6);

for (const label of wanted) {
  const rows = graphs[label];
  if (!rows) {
    console.log(`no graph "${label}"; there are: ${Object.keys(graphs).join(', ')}`);
    continue;
  }
  // Observed times are trace timestamps (µs); shown relative to the first node.
  const origin = Math.min(...rows.map((row) => row.observedStart));
  console.log(`\n${label}: ends at ${Math.round(Math.max(...rows.map((row) => row.end)))} ms`);
  console.log('   start    end   took | observed start + took | what');
  for (const row of [...rows].sort((a, b) => a.start - b.start)) {
    const what =
      row.type === 'network'
        ? `${(row.priority ?? '').padEnd(8)} ${row.connection?.dnsResolutionTime !== undefined ? 'new conn ' : '         '}${tail(row.url ?? '', 70)}`
        : `task${row.layout ? ' with layout' : ''}${row.evaluates?.length ? ` evaluating ${row.evaluates.map((url) => tail(url, 40)).join(', ')}` : ''}`;
    console.log(
      `${ms(row.start)} ${ms(row.end)} ${ms(row.end - row.start)} | ${ms((row.observedStart - origin) / 1000)} + ${ms((row.observedEnd - row.observedStart) / 1000)}     | ${what}`,
    );
  }
}
