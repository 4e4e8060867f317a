#!/usr/bin/env node
// The SMS catcher: what Mailpit is for mail, for SMS. A local stand-in for the SMS provider that
// speaks its HTTP API (Termii's shape: POST /api/sms/send), sends nothing anywhere, and keeps the
// messages in memory so that tests can read them (test/support/sms.ts). Started by `make up`
// (infra/local/sms-catcher.sh) and, in compose, as the `sms-catcher` service. No dependencies:
// Node 20's node:http only.
//
// Environment:
//   SMS_CATCHER_API_KEY  the API key senders must give (required: the catcher refuses to start without it)
//   SMS_CATCHER_HOST     address to listen on (default 127.0.0.1)
//   SMS_CATCHER_PORT     port to listen on (default 8026)
//
// API (every answer is JSON, but the 204s):
//   POST   /api/sms/send        {api_key, to, from, sms, type?, channel?} -> 200 {code: "ok", message_id,
//                               message: "Successfully Sent", balance, user}; 400 invalid JSON or fields,
//                               401 wrong api_key, 413 body over 16 KB, or the simulated failure below
//   GET    /api/messages        ?to=<digits>&since=<ISO date or ms epoch> -> {messages: [...]}, newest first
//   DELETE /api/messages        ?to=<digits>: only that number's; 204
//   POST   /api/catcher/fail    {count, status = 503}: the next `count` sends answer `status` with
//                               {message: "Service unavailable (simulated)"}; count 0 resets; 204
//   GET    /healthz             {status: "ok"}
// Messages kept: the newest MAX_MESSAGES, each {id, to, from, sms, type, channel, received_at}.
// The log has one line per message (number, sender, length), never the text: it may carry a code.
import http from 'node:http';

const MAX_MESSAGES = 2000;
const MAX_BODY_BYTES = 16 * 1024;
const STARTING_BALANCE = 10000;
const ACCOUNT_NAME = 'Tuber Local';
const SIMULATED_FAILURE = 'Service unavailable (simulated)';

const host = process.env.SMS_CATCHER_HOST || '127.0.0.1';
const port = Number(process.env.SMS_CATCHER_PORT || 8026);
const apiKey = process.env.SMS_CATCHER_API_KEY ?? '';

const log = (line) => console.log(`${new Date().toISOString()} ${line}`);

if (!apiKey) {
  console.error('sms-catcher: SMS_CATCHER_API_KEY is not set; refusing to start (senders must give a key, as with the real provider)');
  process.exit(1);
}
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`sms-catcher: SMS_CATCHER_PORT must be a port number (it is '${process.env.SMS_CATCHER_PORT}')`);
  process.exit(1);
}

/** @type {{id: string, to: string, from: string, sms: string, type: string, channel: string, received_at: string}[]} oldest first */
let messages = [];
let balance = STARTING_BALANCE;
let sequence = 0;
/** The simulated outage: this many sends still to fail, and with which status. */
const failure = { remaining: 0, status: 503 };

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function send(res, status, body) {
  if (status === 204 || body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

/** The request body as text, at most MAX_BODY_BYTES (413 beyond). */
function readBody(req) {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
      reject(new HttpError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes`));
      return;
    }
    const chunks = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk) => {
      if (done) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        done = true;
        chunks.length = 0;
        reject(new HttpError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (err) => {
      if (done) return;
      done = true;
      reject(err);
    });
  });
}

/** The body as a JSON object, or 400. */
async function readJson(req) {
  const text = await readBody(req);
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Request body must be valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new HttpError(400, 'Request body must be a JSON object');
  return value;
}

const present = (value) => value !== undefined && value !== null && value !== '';

/** A phone number: a string (or a whole number) of 10 to 15 digits, country code first, no '+'. */
function phoneNumber(value, field) {
  const text = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{10,15}$/.test(text)) {
    throw new HttpError(400, `${field} must be a phone number of 10 to 15 digits (country code first, no '+')`);
  }
  return text;
}

function optionalText(body, field, fallback) {
  const value = body[field];
  if (!present(value)) return fallback;
  if (typeof value !== 'string') throw new HttpError(400, `${field} must be a string`);
  return value;
}

function nextId() {
  sequence += 1;
  return `${Date.now()}${String(sequence % 1_000_000).padStart(6, '0')}`;
}

async function sendSms(req, res) {
  const body = await readJson(req);
  // A provider in an outage answers every send the same way, whatever it carries.
  if (failure.remaining > 0) {
    failure.remaining -= 1;
    log(`send refused with ${failure.status} (simulated failure; ${failure.remaining} more to come)`);
    return send(res, failure.status, { message: SIMULATED_FAILURE });
  }
  if (body.api_key !== apiKey) throw new HttpError(401, 'Invalid API key');
  const missing = ['to', 'from', 'sms'].filter((field) => !present(body[field]));
  if (missing.length > 0) throw new HttpError(400, `Missing ${missing.join(', ')}`);
  const to = phoneNumber(body.to, 'to');
  if (typeof body.from !== 'string' || body.from.length < 3 || body.from.length > 11) {
    throw new HttpError(400, 'from (the sender ID) must be 3 to 11 characters');
  }
  if (typeof body.sms !== 'string') throw new HttpError(400, 'sms must be a string');
  const message = {
    id: nextId(),
    to,
    from: body.from,
    sms: body.sms,
    type: optionalText(body, 'type', 'plain'),
    channel: optionalText(body, 'channel', 'generic'),
    received_at: new Date().toISOString(),
  };
  messages.push(message);
  if (messages.length > MAX_MESSAGES) messages = messages.slice(messages.length - MAX_MESSAGES);
  balance -= 1;
  log(`sms ${message.id} to=${message.to} from=${message.from} length=${message.sms.length} channel=${message.channel}`);
  send(res, 200, { code: 'ok', message_id: message.id, message: 'Successfully Sent', balance, user: ACCOUNT_NAME });
}

/** ?to= as a phone number (400 when malformed), or undefined. */
function toFilter(query) {
  const to = query.get('to');
  return to === null || to === '' ? undefined : phoneNumber(to, 'to');
}

/** ?since= as milliseconds since the epoch: an ISO date or a whole number of ms; 400 when neither. */
function sinceFilter(query) {
  const since = query.get('since');
  if (since === null || since === '') return undefined;
  const ms = /^\d+$/.test(since) ? Number(since) : Date.parse(since);
  if (!Number.isFinite(ms)) throw new HttpError(400, 'since must be an ISO date or milliseconds since the epoch');
  return ms;
}

function listMessages(query, res) {
  const to = toFilter(query);
  const since = sinceFilter(query);
  const found = messages.filter((m) => (to === undefined || m.to === to) && (since === undefined || Date.parse(m.received_at) >= since));
  send(res, 200, { messages: found.reverse() });
}

function deleteMessages(query, res) {
  const to = toFilter(query);
  const before = messages.length;
  messages = to === undefined ? [] : messages.filter((m) => m.to !== to);
  log(`cleared ${before - messages.length} message(s)${to === undefined ? '' : ` to=${to}`}`);
  send(res, 204);
}

async function setFailure(req, res) {
  const body = await readJson(req);
  const { count, status = 503 } = body;
  if (!Number.isInteger(count) || count < 0 || count > 1_000_000)
    throw new HttpError(400, 'count must be a whole number from 0 to 1000000');
  if (!Number.isInteger(status) || status < 400 || status > 599)
    throw new HttpError(400, 'status must be an HTTP error status (400 to 599)');
  failure.remaining = count;
  failure.status = status;
  log(count === 0 ? 'simulated failures off' : `the next ${count} send(s) answer ${status} (simulated failure)`);
  send(res, 204);
}

async function route(req, res) {
  const url = new URL(req.url ?? '/', 'http://catcher.invalid');
  const where = `${req.method} ${url.pathname}`;
  switch (where) {
    case 'POST /api/sms/send':
      return sendSms(req, res);
    case 'GET /api/messages':
      return listMessages(url.searchParams, res);
    case 'DELETE /api/messages':
      return deleteMessages(url.searchParams, res);
    case 'POST /api/catcher/fail':
      return setFailure(req, res);
    case 'GET /healthz':
      return send(res, 200, { status: 'ok' });
    default:
      throw new HttpError(404, `Not found: ${where}`);
  }
}

const server = http.createServer((req, res) => {
  route(req, res).catch((err) => {
    const status = err instanceof HttpError ? err.status : 500;
    if (status === 500) console.error(`sms-catcher: ${req.method} ${req.url}: ${err?.stack ?? err}`);
    if (res.headersSent) return res.destroy();
    // After a refused body the rest of it is not read: close the connection once answered.
    if (status === 413) res.setHeader('connection', 'close');
    send(res, status, { message: status === 500 ? 'Internal error' : err.message });
  });
});
server.keepAliveTimeout = 5_000;
server.requestTimeout = 30_000;

server.on('error', (err) => {
  console.error(`sms-catcher: cannot listen on ${host}:${port}: ${err.message}`);
  process.exit(1);
});

server.listen(port, host, () => {
  log(
    `sms-catcher listening on http://${host}:${port} (POST /api/sms/send, GET|DELETE /api/messages, POST /api/catcher/fail, GET /healthz)`,
  );
});

let stopping = false;
function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping (${messages.length} message(s) dropped)`);
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  // Requests in flight get a moment; then whatever is left is cut.
  setTimeout(() => {
    server.closeAllConnections();
    process.exit(0);
  }, 2_000).unref();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
