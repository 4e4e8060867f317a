// Ended sign-ins checked from memory (issue 24, docs/adr/0056): each service keeps the answers of its
// EXISTS checks through Redis's client-side caching, and Redis invalidates them when the auth service
// writes the sid. Two "replicas" of orders (its own Redis user, as the service runs) ask about a sid,
// then auth records it as ended: the very next check on each replica must say so. The same round is
// repeated many times, so a window between the write and the invalidation would show.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { closeRedis, connectRedis, RevokedSessions, type RedisClient } from '../../src/index.js';
import { redisUrl } from '../../../../test/support/credentials.js';

const clients: RedisClient[] = [];
let auth: RevokedSessions;
let replicas: RevokedSessions[];

async function until(condition: () => boolean, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  const connect = async (user: string) => {
    const client = await connectRedis(redisUrl(user));
    clients.push(client);
    return client;
  };
  auth = new RevokedSessions(await connect('auth'));
  replicas = [new RevokedSessions(await connect('orders')), new RevokedSessions(await connect('orders'))];
  await until(() => replicas.every((replica) => replica.caching));
});

afterAll(async () => {
  for (const sessions of [auth, ...(replicas ?? [])]) await sessions?.close();
  for (const client of clients) await closeRedis(client);
});

describe('ended sign-ins, answered from memory', () => {
  it('keeps the answer for a sign-in in memory once asked', async () => {
    const sid = `test-${randomUUID()}`;
    const before = replicas[0]!.cachedAnswers;
    expect(await replicas[0]!.isRevoked(sid)).toBe(false);
    expect(replicas[0]!.cachedAnswers).toBe(before + 1);
    expect(await replicas[0]!.isRevoked(sid)).toBe(false);
    expect(replicas[0]!.cachedAnswers).toBe(before + 1);
  });

  it('refuses on every replica once the invalidation is read, long before a kept answer would expire, 300 times out of 300', async () => {
    // Redis writes the invalidation in the same pass as its OK to the writer. Here writer and readers
    // share one process, so a reader may still need a turn or two to read the socket the invalidation
    // came in on. Across processes, the logout's own answer and the next request take far longer than
    // that (docs/adr/0056). Counted in turns, not milliseconds: the bound must not depend on the load.
    const turnsNeeded: number[] = [];
    const msNeeded: number[] = [];
    for (let round = 0; round < 300; round++) {
      const sid = `test-${randomUUID()}`;
      // Both replicas have answered "not ended" and keep that answer.
      for (const replica of replicas) expect(await replica.isRevoked(sid)).toBe(false);
      await auth.revoke(sid);
      const written = performance.now();
      for (const replica of replicas) {
        let turns = 0;
        while (!(await replica.isRevoked(sid)) && turns < 200_000) {
          await new Promise((resolve) => setImmediate(resolve));
          turns += 1;
        }
        turnsNeeded.push(turns);
        msNeeded.push(performance.now() - written);
      }
    }
    const worst = Math.max(...turnsNeeded);
    const atOnce = turnsNeeded.filter((turns) => turns === 0).length;
    console.info(
      `ended sign-ins: ${atOnce} of ${turnsNeeded.length} refused at once, the rest within ${worst} turns ` +
        `(${Math.max(...msNeeded).toFixed(1)} ms at most after the write's OK)`,
    );
    // Turns are cheap when the answer is in memory (a map lookup), so a few milliseconds are thousands of them;
    // on a loaded CI machine more. A kept answer that is never
    // invalidated would wait out its 30 s lifetime, far beyond 200 000 turns (about half a second of cheap turns).
    expect(worst, `turns needed: ${turnsNeeded.join(",")}`).toBeLessThan(200_000);
  }, 60_000);

  it('asks Redis directly while the tracking connection is away', async () => {
    const direct = new RevokedSessions(clients[1]!, { cache: false });
    const sid = `test-${randomUUID()}`;
    expect(await direct.isRevoked(sid)).toBe(false);
    await auth.revoke(sid);
    expect(await direct.isRevoked(sid)).toBe(true);
    expect(direct.caching).toBe(false);
    expect(direct.cachedAnswers).toBe(0);
  });
});
