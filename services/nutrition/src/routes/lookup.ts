import { Type } from '@sinclair/typebox';
import { NutritionLookup, TUBER_TYPES, type TuberType } from '@tuber/contracts';
import { notFound, type RedisClient, type ServiceApp } from '@tuber/kit';
import { embeddedLookup, parseTuberType } from '../domain/lookup.js';
import { upstreamLookup, type UpstreamOptions } from '../domain/upstream.js';

export interface LookupDeps {
  redis: RedisClient;
  cacheTtlSeconds: number;
  upstream?: UpstreamOptions;
}

/**
 * How long an embedded answer given in place of a failed provider is kept: long enough to spare a
 * struggling provider, short enough that its own answer comes back soon after it recovers.
 */
export const FALLBACK_TTL_SECONDS = 60;

export function lookupRoutes(app: ServiceApp, deps: LookupDeps) {
  async function resolve(tuberType: TuberType, log: ServiceApp['log']): Promise<{ answer: NutritionLookup; fallback: boolean }> {
    if (deps.upstream) {
      try {
        const answer = await upstreamLookup(deps.upstream, tuberType);
        if (answer)
          return {
            answer: { tuber_type: tuberType, nutrition: answer.nutrition, source: { name: 'Nutrition provider', reference: answer.food } },
            fallback: false,
          };
        log.warn({ tuberType }, 'nutrition provider had no food for this type; using the embedded data');
      } catch (err) {
        log.warn({ err, tuberType }, 'nutrition provider failed; using the embedded data');
      }
    }
    return { answer: embeddedLookup(tuberType), fallback: deps.upstream !== undefined };
  }

  app.get(
    '/api/nutrition/:tuberType',
    {
      schema: {
        summary: 'Nutrition values of a tuber type, per serving',
        params: Type.Object({ tuberType: Type.String({ minLength: 1, maxLength: 40 }) }),
        response: { 200: NutritionLookup, 400: Type.Ref('ErrorResponse'), 404: Type.Ref('ErrorResponse') },
      },
    },
    async (request, reply) => {
      const tuberType = parseTuberType(request.params.tuberType);
      if (!tuberType) {
        throw notFound('NUTRITION_NOT_FOUND', `No nutrition data for "${request.params.tuberType}". Known tuber types: ${TUBER_TYPES.join(', ')}.`);
      }
      const key = `nutrition:v1:${deps.upstream ? 'upstream' : 'embedded'}:${tuberType}`;
      const cached = await deps.redis.get(key).catch((err: Error) => {
        request.log.warn({ err }, 'nutrition cache unavailable');
        return null;
      });
      if (cached) {
        reply.header('x-cache', 'hit');
        return JSON.parse(cached) as NutritionLookup;
      }
      const { answer, fallback } = await resolve(tuberType, request.log);
      const ttl = fallback ? Math.min(FALLBACK_TTL_SECONDS, deps.cacheTtlSeconds) : deps.cacheTtlSeconds;
      await deps.redis.set(key, JSON.stringify(answer), { expiration: { type: 'EX', value: ttl } }).catch(() => undefined);
      reply.header('x-cache', 'miss');
      return answer;
    },
  );
}
