import { Type } from '@sinclair/typebox';
import { BaseConfig, NatsConfig, OidcConfig, RedisConfig, mongoConfig, portConfig } from '@tuber/kit';

export const CatalogConfig = Type.Composite([
  BaseConfig,
  portConfig(4003),
  OidcConfig,
  NatsConfig,
  RedisConfig,
  mongoConfig('catalog'),
  Type.Object({
    FEED_PAGE_MAX: Type.Integer({ minimum: 1, maximum: 100, default: 48 }),
    /** Where the Redis read model lives (ADR 0023); inside the catalog user's `catalog:` keys. */
    READ_MODEL_PREFIX: Type.String({ pattern: '^catalog:[a-z0-9:_-]*:$', default: 'catalog:rm:' }),
    /**
     * The read model's own Redis (ADR 0061), its budget apart from the sessions, limits and locks of
     * REDIS_URL; the same `catalog` user. Unset or empty: the read model lives in REDIS_URL's Redis.
     */
    CATALOG_READMODEL_REDIS_URL: Type.Optional(Type.String()),
  }),
]);
export type CatalogConfig = typeof CatalogConfig.static;
