// Loaded by autocannon inside its worker thread (in worker mode its `setupClient` option is a file
// path): records each 2xx response's time as autocannon measures it (process.hrtime, fractional
// milliseconds) into the SharedArrayBuffer passed as the extra `latencyRecord` option. autocannon's
// own latency histogram keeps whole milliseconds, so sub-millisecond p50s read as 0 or 1 ms there.
// Layout: an Int32 count at byte 0, then Float64 times from byte 8 (times past the end are counted, not kept).
'use strict';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- autocannon require()s this file: CommonJS
const { workerData } = require('node:worker_threads');

const record = workerData && workerData.opts && workerData.opts.latencyRecord;
const count = record ? new Int32Array(record, 0, 1) : null;
const times = record ? new Float64Array(record, 8) : null;

module.exports = function setupClient(client) {
  if (!count) return;
  client.on('response', (statusCode, _bytes, ms) => {
    if (statusCode < 200 || statusCode >= 300) return;
    const i = Atomics.add(count, 0, 1);
    if (i < times.length) times[i] = ms;
  });
};
