import { Type } from '@sinclair/typebox';
import { BaseConfig, NatsConfig, OidcConfig, RedisConfig, SmsConfig, mongoConfig, portConfig } from '@tuber/kit';

export const ProfileConfig = Type.Composite([BaseConfig, portConfig(4002), OidcConfig, NatsConfig, RedisConfig, mongoConfig('profile'), SmsConfig]);
export type ProfileConfig = typeof ProfileConfig.static;
