// Asks a local server, in its own protocol, whether it serves: exit 0 when the answer is that
// protocol's, 1 otherwise (refused, silent, or something else on the port). lib.sh's readiness
// waits call it, so that "ready" means the server answered, never that a pid file names a live
// process (a pid may be a wrapper such as runuser, and a server that renames itself, as Redis
// does, can hide the environment that identifies it) — issue 24, docs/adr/0058.
//   node probe.mjs mongo|redis|nats|smtp|http PORT [PATH]
// No dependencies: it runs before npm install has been checked, and it starts in ~40 ms.
import net from 'node:net';

const [kind, portText, path = '/'] = process.argv.slice(2);
const port = Number(portText);
const TIMEOUT_MS = 2000;

/** A BSON document of int32 and string fields, enough for the `hello` command. */
function bson(fields) {
  const parts = [];
  for (const [key, value] of Object.entries(fields)) {
    const name = Buffer.from(`${key}\0`);
    if (typeof value === 'number') {
      const v = Buffer.alloc(4);
      v.writeInt32LE(value);
      parts.push(Buffer.from([0x10]), name, v);
    } else {
      const text = Buffer.from(`${value}\0`);
      const size = Buffer.alloc(4);
      size.writeInt32LE(text.length);
      parts.push(Buffer.from([0x02]), name, size, text);
    }
  }
  const body = Buffer.concat([...parts, Buffer.from([0])]);
  const size = Buffer.alloc(4);
  size.writeInt32LE(body.length + 4);
  return Buffer.concat([size, body]);
}

/** OP_MSG (opcode 2013) carrying one command document. */
function opMsg(doc) {
  const header = Buffer.alloc(16);
  const flags = Buffer.alloc(4);
  const length = 16 + 4 + 1 + doc.length;
  header.writeInt32LE(length, 0);
  header.writeInt32LE(1, 4); // requestID
  header.writeInt32LE(0, 8); // responseTo
  header.writeInt32LE(2013, 12);
  return Buffer.concat([header, flags, Buffer.from([0]), doc]);
}

/** What to send on connect, and whether the bytes so far are a whole, valid answer (null: wait for more). */
const protocols = {
  // The handshake every driver sends first; a MongoDB-wire server answers it before any sign-in.
  mongo: {
    hello: () => opMsg(bson({ hello: 1, $db: 'admin' })),
    judge: (bytes) => {
      if (bytes.length < 16) return null;
      const length = bytes.readInt32LE(0);
      if (bytes.length < length) return null;
      return bytes.readInt32LE(8) === 1 && bytes.readInt32LE(12) === 2013 && bytes.includes(Buffer.from('ok\0'));
    },
  },
  // PONG, or the refusal a server with ACLs gives an unsigned client: either is Redis speaking.
  // A server still loading its data answers -LOADING, which is not ready.
  redis: {
    hello: () => Buffer.from('PING\r\n'),
    judge: (bytes) => {
      const text = bytes.toString('latin1');
      if (!text.includes('\r\n')) return null;
      return text.startsWith('+PONG') || text.startsWith('-NOAUTH');
    },
  },
  // A NATS server greets every client with its INFO line.
  nats: {
    hello: () => Buffer.alloc(0),
    judge: (bytes) => {
      const text = bytes.toString('latin1');
      if (!text.includes('\r\n')) return null;
      return text.startsWith('INFO {');
    },
  },
  // An SMTP server's greeting: 220.
  smtp: {
    hello: () => Buffer.alloc(0),
    judge: (bytes) => {
      const text = bytes.toString('latin1');
      if (!text.includes('\r\n')) return null;
      return text.startsWith('220');
    },
  },
  // Any HTTP status line: the server speaks HTTP, whatever it thinks of this path.
  http: {
    hello: () => Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`),
    judge: (bytes) => {
      const text = bytes.toString('latin1');
      if (!text.includes('\r\n')) return null;
      return /^HTTP\/1\.[01] \d{3} /.test(text);
    },
  },
};

const protocol = protocols[kind];
if (!protocol || !Number.isInteger(port) || port <= 0) {
  console.error('usage: node probe.mjs mongo|redis|nats|smtp|http PORT [PATH]');
  process.exit(2);
}

const socket = net.connect({ host: '127.0.0.1', port });
let received = Buffer.alloc(0);
const finish = (ok) => {
  socket.destroy();
  process.exit(ok ? 0 : 1);
};
socket.setTimeout(TIMEOUT_MS, () => finish(false));
socket.on('error', () => finish(false));
socket.on('connect', () => {
  const hello = protocol.hello();
  if (hello.length > 0) socket.write(hello);
});
socket.on('data', (chunk) => {
  received = Buffer.concat([received, chunk]);
  const verdict = protocol.judge(received);
  if (verdict !== null) finish(verdict);
});
socket.on('end', () => finish(protocol.judge(received) === true));
