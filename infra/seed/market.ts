// `make seed-market` (issue 27, docs/adr/0072): a year of a plausible market, replayed through the real API so the
// price guide's figures come from the real pipeline (orders → events → the catalog's read model), never from a table.
// Farmers (Keycloak accounts with profiles) post their tubers, move their prices week by week, and buyers send
// requests that farmers accept, decline, and sometimes cancel after accepting. The services' clock is moved one
// simulated week at a time through the file their kit reads on the local stack (services/kit/src/clock.ts), so each
// week's posts, edits and answers carry that week's time; tokens, limits and everything else keep real time.
//
//   make seed-market [WEEKS=52] [FARMERS=24] [BUYERS=36] [SALES=6] [SEED=27]
//
// WEEKS     weeks replayed, ending with this one
// FARMERS   farmers, spread over five places of the city; one place ("Iddo") has a single farmer, whose prices the
//           guide must never show on their own
// BUYERS    buyers
// SALES     requests per tuber and week on average (Poisson); about 7 % are declined and 4 % cancelled after being
//           accepted (neither counts), 30 % of the accepted are marked fulfilled
// SEED      the random numbers' seed: the same seed makes the same market
//
// Prices per kg follow a base per tuber with its season: yam falls by about a third from August (the new yam) to
// October and climbs back through the lean months to July; the others move a little (± 8 %). Each farmer prices
// 15 % either side of the market, with a little noise each week. About half of the yam is sold per tuber (2.5 kg)
// and some cassava per heap (5 kg), so the guide's conversion to per kg is exercised.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { TUBER_TYPES, type TuberType } from '@tuber/contracts';
import { createAccount } from '../../test/support/accounts.js';
import { api, eventually, imageForm, photo } from '../../test/support/api.js';
import { refreshTokens, signInWithPassword } from '../../test/support/keycloak.js';

const env = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number above 0 (got "${process.env[name]}")`);
  return value;
};
const WEEKS = env('WEEKS', 52);
const FARMERS = Math.max(env('FARMERS', 24), 8);
const BUYERS = Math.max(env('BUYERS', 36), 3);
const SALES = env('SALES', 6);
const SEED = env('SEED', 27);
const CLOCK_FILE = process.env.SIMULATED_CLOCK_FILE ?? path.join(process.env.TUBER_STATE ?? '.run', 'simulated-clock.json');
/** The kit reads the clock file at most every 100 ms: wait longer after each move. */
const CLOCK_SETTLE_MS = 250;
const DAY = 86_400_000;
const WEEK = 7 * DAY;

// ------------------------------------------------------------------ random numbers (mulberry32: small, seeded)
let state = SEED >>> 0;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (low: number, high: number) => low + (high - low) * random();
function poisson(mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  let p = 1;
  do {
    k += 1;
    p *= random();
  } while (p > limit);
  return k - 1;
}

// ------------------------------------------------------------------ the market's shape
const BASE_PER_KG: Record<TuberType, number> = {
  yam: 1150,
  cassava: 380,
  potato: 900,
  'sweet potato': 620,
  tumeric: 1800,
  garlic: 3400,
  ginger: 2100,
};
/** The season's factor on a tuber's price at an instant. */
function season(tuber: TuberType, at: number): number {
  const date = new Date(at);
  const month = date.getUTCMonth() + date.getUTCDate() / 31; // 0 = January … 11.97 = end of December
  if (tuber === 'yam') {
    // New yam from August: down a third by mid-August, low to October, then back up through the lean months.
    if (month >= 7 && month < 7.5) return 1.1 - (month - 7) * 2 * 0.42;
    if (month >= 7.5 && month < 10) return 0.68;
    if (month >= 10) return 0.68 + (month - 10) * 0.11;
    return 0.9 + month * 0.03; // January 0.9 … July 1.1
  }
  const phase = TUBER_TYPES.indexOf(tuber);
  return 1 + 0.08 * Math.sin(((month + phase) / 12) * 2 * Math.PI);
}
const PLACES = ['Bodija', 'Ojoo', 'Moniya', 'Akobo'];
const LONE_PLACE = 'Iddo';
const NAMES = ['Adebayo', 'Chioma', 'Musa', 'Ngozi', 'Tunde', 'Aisha', 'Emeka', 'Funke', 'Ibrahim', 'Kemi', 'Obinna', 'Zainab'];

interface Account {
  id: string;
  email: string;
  password: string;
  token: string;
  refreshToken: string;
  tokenUntil: number;
  /** A refresh under way (one at a time per account). */
  renewing?: Promise<void> | undefined;
}
interface Listing {
  productId: string;
  farmer: Account;
  tuber: TuberType;
  unit: 'kg' | 'tuber' | 'heap';
  weight: number;
  factor: number;
  price: number;
  quantity: number;
}

const expiryOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp * 1000 - 30_000;

async function signedIn(account: { id: string; email: string; password: string }): Promise<Account> {
  const tokens = await signInWithPassword(account.email, account.password);
  return { ...account, token: tokens.accessToken, refreshToken: tokens.refreshToken, tokenUntil: expiryOf(tokens.accessToken) };
}
/** The account's token, refreshed (as the app does) shortly before it runs out; signed in again if that fails. */
async function tokenOf(account: Account): Promise<string> {
  if (Date.now() <= account.tokenUntil) return account.token;
  account.renewing ??= (async () => {
    const refreshed = await refreshTokens(account.refreshToken);
    const tokens = refreshed.tokens ?? (await signInWithPassword(account.email, account.password));
    Object.assign(account, { token: tokens.accessToken, refreshToken: tokens.refreshToken, tokenUntil: expiryOf(tokens.accessToken) });
  })().finally(() => {
    account.renewing = undefined;
  });
  await account.renewing;
  return account.token;
}
async function call(
  account: Account,
  method: string,
  url: string,
  json?: unknown,
  form?: () => FormData,
): Promise<{ status: number; body: any }> {
  for (let attempt = 0; ; attempt += 1) {
    const body = json === undefined ? (form ? { form: form() } : {}) : { json };
    const answer = await api(method, url, { token: await tokenOf(account), ...body }).catch((err: unknown) => ({
      status: 0,
      body: { message: String(err) },
    }));
    // A limit, a busy moment or a service restarting: wait as told (or a few seconds), up to 8 times.
    if ([0, 429, 502, 503, 504].includes(answer.status) && attempt < 8) {
      await sleep(Math.min(30, Number(answer.body?.seconds ?? 3)) * 1000);
      continue;
    }
    return answer;
  }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Moves the services' clock to `at` (never past the real now). */
async function clockAt(at: number): Promise<number> {
  const when = Math.min(at, Date.now() - 60_000);
  fs.writeFileSync(CLOCK_FILE, JSON.stringify({ offset_ms: when - Date.now() }));
  await sleep(CLOCK_SETTLE_MS);
  return when;
}
const clockReal = () => fs.rmSync(CLOCK_FILE, { force: true });

/** Lagos day (YYYY-MM-DD) of an instant. */
const lagosDay = (at: number) => new Date(at + 3_600_000).toISOString().slice(0, 10);

async function main() {
  const started = Date.now();
  const now = Date.now();
  // Weeks start on Monday in Lagos; the first is WEEKS - 1 weeks before this one.
  const lagosToday = Math.floor((now + 3_600_000) / DAY);
  const thisMonday = lagosToday - ((lagosToday + 3) % 7);
  const firstWeek = (thisMonday - (WEEKS - 1) * 7) * DAY - 3_600_000;
  console.log(
    `seeding ${WEEKS} weeks from ${lagosDay(firstWeek)}: ${FARMERS} farmers, ${BUYERS} buyers, about ${SALES} requests per tuber a week (seed ${SEED})`,
  );

  // Accounts first, at real time; then the clock goes back for the products.
  const picture = await photo(320, 240, 35);
  const farmers: { account: Account; place: string; tubers: TuberType[] }[] = [];
  for (let i = 0; i < FARMERS; i += 1) {
    const place = i === FARMERS - 1 ? LONE_PLACE : PLACES[i % PLACES.length]!;
    // Every tuber has farmers in every place; yam has the most.
    const tubers = [...new Set<TuberType>([i % 2 === 0 ? 'yam' : TUBER_TYPES[i % TUBER_TYPES.length]!, TUBER_TYPES[(i * 3 + 1) % 7]!, ...(i % 3 === 0 ? ['yam' as const] : [])])];
    const made = await createAccount({ role: 'farmer', businessName: `${NAMES[i % NAMES.length]} Farms ${i + 1}`, location: place, tuber: [...tubers] });
    const account = await signedIn(made);
    const profile = await api('POST', '/api/profile/me', { token: account.token });
    if (profile.status !== 201) throw new Error(`the profile of farmer ${i + 1} answered ${profile.status}: ${JSON.stringify(profile.body)}`);
    farmers.push({ account, place, tubers });
  }
  const buyers: Account[] = [];
  for (let i = 0; i < BUYERS; i += 1) {
    const account = await signedIn(await createAccount({ role: 'buyer' }));
    const profile = await api('POST', '/api/profile/me', { token: account.token });
    if (profile.status !== 201) throw new Error(`the profile of buyer ${i + 1} answered ${profile.status}: ${JSON.stringify(profile.body)}`);
    buyers.push(account);
  }
  console.log(`  ${FARMERS} farmers and ${BUYERS} buyers signed up (${Math.round((Date.now() - started) / 1000)} s)`);

  const listings: Listing[] = [];
  let at = await clockAt(firstWeek + 8 * 3_600_000);
  for (const farmer of farmers) {
    for (const tuber of farmer.tubers) {
      const unit = tuber === 'yam' && random() < 0.5 ? 'tuber' : tuber === 'cassava' && random() < 0.4 ? 'heap' : 'kg';
      const weight = unit === 'tuber' ? 2.5 : unit === 'heap' ? 5 : 1;
      const factor = between(0.85, 1.15);
      const price = Math.round(BASE_PER_KG[tuber] * season(tuber, at) * factor * weight);
      const quantity = unit === 'kg' ? 3000 : unit === 'tuber' ? 1200 : 600;
      const image_ids: string[] = [];
      for (let p = 0; p < 2; p += 1) {
        const answer = await call(farmer.account, 'POST', '/api/media/images', undefined, () => imageForm(picture, `${tuber} ${p}.jpg`));
        if (answer.status !== 201) throw new Error(`a photo upload answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        image_ids.push(answer.body.image_id);
      }
      const body = {
        product_name: `${tuber[0]!.toUpperCase()}${tuber.slice(1)} from ${farmer.place}`,
        description: `Fresh ${tuber} from our farm at ${farmer.place}, sorted by size and ready for pickup or delivery.`,
        price,
        unit,
        ...(unit === 'kg' ? {} : { unit_weight_kg: weight }),
        quantity,
        tuber_type: tuber,
        image_ids,
        cultural: `${tuber} is part of many family meals here.`,
      };
      const posted = await eventually(
        () => call(farmer.account, 'POST', '/api/catalog/products', body),
        (answer) => answer.status !== 409,
        30_000,
      );
      if (posted.status !== 201) throw new Error(`a product post answered ${posted.status}: ${JSON.stringify(posted.body)}`);
      listings.push({ productId: posted.body.product_id, farmer: farmer.account, tuber, unit, weight, factor, price, quantity });
    }
  }
  console.log(`  ${listings.length} listings posted`);

  const counts = { sent: 0, accepted: 0, declined: 0, cancelled: 0, fulfilled: 0, refused: 0, edits: 0 };
  for (let week = 0; week < WEEKS; week += 1) {
    const monday = firstWeek + week * WEEK;
    if (monday > now) break;
    // Monday morning: prices follow the season (an edit when they moved over 3 %), stock is topped up.
    at = await clockAt(monday + 8 * 3_600_000);
    for (const listing of listings) {
      const target = Math.round(BASE_PER_KG[listing.tuber] * season(listing.tuber, at) * listing.factor * between(0.97, 1.03) * listing.weight);
      const moved = Math.abs(target - listing.price) / listing.price > 0.03;
      const low = listing.quantity < 200;
      if (!moved && !low) continue;
      const change = { ...(moved ? { price: target } : {}), ...(low ? { quantity: listing.unit === 'kg' ? 3000 : 1200 } : {}) };
      const edited = await call(listing.farmer, 'PATCH', `/api/catalog/products/${listing.productId}`, change);
      if (edited.status !== 200) throw new Error(`an edit answered ${edited.status}: ${JSON.stringify(edited.body)}`);
      listing.price = edited.body.price;
      listing.quantity = edited.body.quantity;
      counts.edits += 1;
    }
    // Tuesday to Friday: requests, each answered the same day.
    for (const day of [1, 2, 3, 4]) {
      at = await clockAt(monday + day * DAY + between(8, 17) * 3_600_000);
      if (at < monday + day * DAY) break; // this week's days still to come
      const jobs: (() => Promise<void>)[] = [];
      for (const tuber of TUBER_TYPES) {
        const sellers = listings.filter((l) => l.tuber === tuber);
        if (!sellers.length) continue;
        for (let n = poisson(SALES / 4); n > 0; n -= 1) {
          const listing = pick(sellers);
          const buyer = pick(buyers);
          const quantity = listing.unit === 'kg' ? Math.round(between(5, 60)) : Math.round(between(4, 30));
          jobs.push(() => sale(listing, buyer, quantity, at, counts));
        }
      }
      await inParallel(jobs, 4);
    }
    if (week % 4 === 3 || week === WEEKS - 1) {
      console.log(
        `  week ${week + 1}/${WEEKS} (${lagosDay(monday)}): ${counts.accepted} accepted, ${counts.declined} declined, ${counts.cancelled} cancelled, ${counts.edits} price edits (${Math.round((Date.now() - started) / 1000)} s)`,
      );
    }
  }
  clockReal();
  console.log(
    `seeded in ${Math.round((Date.now() - started) / 1000)} s: ${counts.sent} requests sent, ${counts.accepted} accepted (${counts.cancelled} of them cancelled, ${counts.fulfilled} fulfilled), ${counts.declined} declined, ${counts.refused} refused; ${counts.edits} price edits. The price guide: /prices/yam`,
  );
}

/** One request: sent, then accepted (and sometimes cancelled or fulfilled), or declined. */
async function sale(listing: Listing, buyer: Account, quantity: number, at: number, counts: Record<string, number>): Promise<void> {
  const body = {
    request_id: randomUUID(),
    farmer_id: listing.farmer.id,
    lines: [{ product_id: listing.productId, quantity, price: listing.price, unit: listing.unit }],
    fulfilment: 'pickup',
    preferred_date: lagosDay(at + DAY),
    phone: '08030000000',
  };
  // The orders service learns of an edit by event: a price it does not know yet is refused for a moment.
  const sent = await eventually(
    () => call(buyer, 'POST', '/api/orders/requests', body),
    (answer) => answer.status !== 409,
    10_000,
  );
  if (sent.status !== 201 && sent.status !== 200) {
    counts.refused += 1;
    return;
  }
  counts.sent += 1;
  const id = sent.body.request_id as string;
  const roll = random();
  if (roll < 0.07) {
    const declined = await call(listing.farmer, 'POST', `/api/orders/requests/${id}/decline`, { reason: 'Not enough left this week' });
    if (declined.status === 200) counts.declined += 1;
    return;
  }
  const accepted = await call(listing.farmer, 'POST', `/api/orders/requests/${id}/accept`, {});
  if (accepted.status !== 200) {
    counts.refused += 1;
    return;
  }
  counts.accepted += 1;
  listing.quantity -= quantity;
  if (roll < 0.11) {
    const cancelled = await call(buyer, 'POST', `/api/orders/requests/${id}/cancel`, { reason: 'Plans changed' });
    if (cancelled.status === 200) counts.cancelled += 1;
  } else if (roll < 0.4) {
    const done = await call(listing.farmer, 'POST', `/api/orders/requests/${id}/fulfil`, {});
    if (done.status === 200) counts.fulfilled += 1;
  }
}

async function inParallel(jobs: (() => Promise<void>)[], width: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) await jobs[next++]!();
    }),
  );
}

try {
  await main();
} finally {
  clockReal();
}
