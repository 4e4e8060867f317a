// Credentials travel inside the connection URLs services get (docs/adr/0017):
// nats://user:password@host:port, redis://user:password@host:port, mongodb://user:password@host/db.
// These helpers split them out where a client library does not read them from the URL, and keep
// them out of messages and logs.

export interface NatsServer {
  /** The URL without user information; for a list of servers, each one's URL. */
  servers: string | string[];
  user?: string;
  pass?: string;
}

/**
 * Splits `nats://user:password@host:port` into the address and the credentials (the NATS client
 * ignores URL credentials). A cluster is a comma-separated list,
 * `nats://user:password@host1:4222,nats://host2:4222,host3:4222`: the credentials may be on any
 * entry (on several only if they are the same), and `servers` is then the list of addresses.
 */
export function natsServer(url: string): NatsServer {
  const entries = url
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length <= 1) return natsServerOne(url.trim());
  const parts = entries.map((entry) => natsServerOne(/^[a-z]+:\/\//i.test(entry) ? entry : `nats://${entry}`));
  const signed = parts.filter((part) => part.user !== undefined);
  if (signed.some((part) => part.user !== signed[0]!.user || part.pass !== signed[0]!.pass)) {
    throw new Error(
      `NATS_URL ${redactUrl(url)} names different credentials for different servers; give one user and password for the cluster.`,
    );
  }
  const servers = parts.map((part) => part.servers);
  return signed[0] ? { servers, user: signed[0].user, pass: signed[0].pass } : { servers };
}

function natsServerOne(url: string): NatsServer & { servers: string } {
  const parsed = new URL(url);
  if (!parsed.username) return { servers: url };
  const user = decodeURIComponent(parsed.username);
  const pass = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  return { servers: parsed.toString().replace(/\/$/, ''), user, pass };
}

/** The URL with its password replaced by `***`, for messages. */
export function redactUrl(url: string): string {
  if (url.includes(',')) return url.split(',').map(redactUrl).join(',');
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');
  }
}
