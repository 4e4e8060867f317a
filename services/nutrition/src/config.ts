import { Type } from '@sinclair/typebox';
import { BaseConfig, RedisConfig, portConfig } from '@tuber/kit';

export const NutritionConfig = Type.Composite([
  BaseConfig,
  RedisConfig,
  portConfig(4005),
  Type.Object({
    /** How long a lookup stays cached in Redis. */
    NUTRITION_CACHE_TTL_S: Type.Integer({ minimum: 1, default: 86_400 }),
  }),
]);
export type NutritionConfig = typeof NutritionConfig.static;
