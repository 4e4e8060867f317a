// Environment configuration, validated once at start-up. Nothing else reads process.env.
import { envSchema } from 'env-schema';
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';

export const BaseConfig = Type.Object({
  NODE_ENV: Type.String({ default: 'development' }),
  HOST: Type.String({ default: '127.0.0.1' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  /** Grace period for draining requests and consumers on shutdown. */
  SHUTDOWN_GRACE_MS: Type.Integer({ minimum: 100, default: 10_000 }),
  /** The gateway's address(es), IPs or CIDR ranges, comma-separated: the only hop whose X-Forwarded-For counts. */
  TRUSTED_PROXIES: Type.String({ default: '127.0.0.1,::1' }),
});

/** The port a service listens on, with its development default. */
export const portConfig = (port: number) => Type.Object({ PORT: Type.Integer({ minimum: 1, maximum: 65535, default: port }) });

/** Keycloak realm settings every service that checks tokens needs. */
export const OidcConfig = Type.Object({
  /** Where this service reaches Keycloak (may differ from the public URL). */
  KEYCLOAK_URL: Type.String({ default: 'http://127.0.0.1:8180/auth' }),
  KEYCLOAK_REALM: Type.String({ default: 'tuber' }),
  /** The `iss` claim tokens must carry: the realm as the browser sees it. */
  OIDC_ISSUER: Type.String({ default: 'http://localhost:8080/auth/realms/tuber' }),
  OIDC_AUDIENCE: Type.String({ default: 'tuber-api' }),
});

export const NatsConfig = Type.Object({
  /** One server, or a cluster's servers comma-separated (credentials on the first; see natsServer). */
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  /**
   * Copies JetStream keeps of each stream the kit declares (docs/adr/0040): 1 on a single server,
   * 3 on the 3-node cluster (a stream then survives the loss of one node). An existing stream
   * with another count is updated to this one. Unset (tests, tools): a new stream gets 1 and an
   * existing one keeps its count, so a test process never scales the cluster's streams down.
   */
  NATS_STREAM_REPLICAS: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
});
export const RedisConfig = Type.Object({ REDIS_URL: Type.String({ default: 'redis://127.0.0.1:6379' }) });
export const mongoConfig = (db: string) => Type.Object({ MONGO_URL: Type.String({ default: `mongodb://127.0.0.1:27017/${db}` }) });

/** Merges config fragments into one schema. */
export function configSchema<T extends TProperties>(...parts: TObject[]): TObject<T> {
  return Type.Composite(parts) as unknown as TObject<T>;
}

/**
 * Validates `env` against the schema, applying defaults and coercing numbers.
 * Throws one error listing every missing or malformed variable.
 */
export function loadConfig<S extends TObject>(schema: S, env: NodeJS.ProcessEnv = process.env): Static<S> {
  return envSchema<Static<S>>({ schema, data: env, dotenv: false });
}
