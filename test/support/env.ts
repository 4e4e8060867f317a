// Addresses of the running servers for tests, from the same variables the scripts use.
import { mongoUrl, natsUrl, redisUrl, secret } from './credentials.js';

const env = process.env;
const port = (name: string, fallback: number) => Number(env[name] ?? fallback);

export const PUBLIC_URL = env.PUBLIC_URL ?? 'http://localhost:8080';

/**
 * The environment a service gets from infra/local/app.sh, for building it in-process; it signs in
 * to the servers as `tuber-test` (docs/adr/0017), so a test may point it at a scratch database.
 */
export function serviceEnv(service: 'auth' | 'profile' | 'catalog' | 'media' | 'nutrition' | 'orders' | 'moderation'): NodeJS.ProcessEnv {
  return {
    LOG_LEVEL: 'silent',
    MONGO_URL: mongoUrl(service),
    NATS_URL: natsUrl(),
    REDIS_URL: redisUrl(),
    KEYCLOAK_URL: `http://127.0.0.1:${port('KEYCLOAK_PORT', 8180)}/auth`,
    KEYCLOAK_REALM: 'tuber',
    OIDC_ISSUER: `${PUBLIC_URL}/auth/realms/tuber`,
    OIDC_AUDIENCE: 'tuber-api',
    PUBLIC_URL,
    MINIO_ENDPOINT: '127.0.0.1',
    MINIO_PORT: String(port('MINIO_PORT', 9100)),
    MINIO_BUCKET: env.MINIO_BUCKET ?? 'product-images',
    MINIO_ACCESS_KEY: env.MINIO_ACCESS_KEY || secret('minio-root-user'),
    MINIO_SECRET_KEY: env.MINIO_SECRET_KEY || secret('minio-root-password'),
    KEYCLOAK_AUTH_CLIENT_SECRET: env.KEYCLOAK_AUTH_CLIENT_SECRET ?? '',
    // The moderation service's Keycloak client (tuber-moderation), as infra/local/keycloak.sh made it.
    KEYCLOAK_MODERATION_CLIENT_SECRET: env.KEYCLOAK_MODERATION_CLIENT_SECRET || secret('keycloak-moderation-client-secret'),
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(port('MAILPIT_SMTP_PORT', 1025)),
    // The local SMS catcher (infra/sms-catcher), with the key infra/local/sms-catcher.sh gave it.
    SMS_API_URL: `http://127.0.0.1:${port('SMS_CATCHER_PORT', 8026)}`,
    SMS_API_KEY: secret('sms-api-key'),
    SMS_SENDER_ID: 'TuberMkt',
  };
}
