// Credentials travel inside the connection URLs services get (docs/adr/0017):
// nats://user:password@host:port, redis://user:password@host:port, mongodb://user:password@host/db.
// These helpers split them out where a client library does not read them from the URL, and keep
// them out of messages and logs.

export interface NatsServer {
  /** The URL without user information. */
  servers: string;
  user?: string;
  pass?: string;
}

/** Splits `nats://user:password@host:port` into the address and the credentials (the NATS client ignores URL credentials). */
export function natsServer(url: string): NatsServer {
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
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');
  }
}
