import { Type } from '@sinclair/typebox';
import { NutritionLookup, TUBER_TYPES } from '@tuber/contracts';
import { notFound, type ServiceApp } from '@tuber/kit';
import type { Redis } from 'ioredis';
import { embeddedLookup, parseTuberType } from '../domain/lookup.js';

export function lookupRoutes(app: ServiceApp, deps: { redis: Redis; cacheTtlSeconds: number }) {
  app.get(
    '/api/nutrition/:tuberType',
    {
      schema: {
        summary: 'Nutrition values of a tuber type, per serving',
        params: Type.Object({ tuberType: Type.String({ minLength: 1, maxLength: 40 }) }),
        response: { 200: NutritionLookup, 404: Type.Ref('ErrorResponse') },
      },
    },
    async (request, reply) => {
      const tuberType = parseTuberType(request.params.tuberType);
      if (!tuberType) {
        throw notFound(`No nutrition data for "${request.params.tuberType}". Known tuber types: ${TUBER_TYPES.join(', ')}.`);
      }
      const key = `nutrition:v1:${tuberType}`;
      const cached = await deps.redis.get(key).catch((err: Error) => {
        request.log.warn({ err }, 'nutrition cache unavailable; answering from the embedded data');
        return null;
      });
      if (cached) {
        reply.header('x-cache', 'hit');
        return JSON.parse(cached) as NutritionLookup;
      }
      const answer = embeddedLookup(tuberType);
      await deps.redis.set(key, JSON.stringify(answer), 'EX', deps.cacheTtlSeconds).catch(() => undefined);
      reply.header('x-cache', 'miss');
      return answer;
    },
  );
}
