import { Type } from '@sinclair/typebox';
import { BaseConfig, RedisConfig, portConfig } from '@tuber/kit';

export const NutritionConfig = Type.Composite([
  BaseConfig,
  RedisConfig,
  portConfig(4005),
  Type.Object({
    /** How long a lookup stays cached in Redis. */
    NUTRITION_CACHE_TTL_S: Type.Integer({ minimum: 1, default: 86_400 }),
    /** Optional third-party provider; used only when both keys are set. Keys stay on the server. */
    NUTRITION_UPSTREAM_URL: Type.String({ default: '' }),
    NUTRITION_UPSTREAM_APP_ID: Type.String({ default: '' }),
    NUTRITION_UPSTREAM_APP_KEY: Type.String({ default: '' }),
    NUTRITION_UPSTREAM_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 3_000 }),
  }),
]);
export type NutritionConfig = typeof NutritionConfig.static;
