// `make rebuild-prices` (and in a deployment: `node dist/prices/rebuild-cli.js` in the catalog's container, with its
// environment): rebuilds the price guide from the event stream beside the live one and reports where they differ.
// Exit 1 when they differ. With --replace the rebuilt read model then takes the live one's place.
import { EventBus, loadConfig, now as clockNow } from '@tuber/kit';
import mongoose from 'mongoose';
import pino from 'pino';
import { CatalogConfig } from '../config.js';
import { productModel } from '../domain/product.js';
import { legacyFrom } from './follow.js';
import { PriceStore } from './model.js';
import { compareSeries, rebuildPrices, replaceLive } from './rebuild.js';

const config = loadConfig(CatalogConfig);
const log = pino({ level: 'warn' });
const connection = await mongoose.createConnection(config.MONGO_URL).asPromise();
const bus = await EventBus.connect(config.NATS_URL, 'catalog-prices-rebuild', log as never);
try {
  const nowMs = clockNow().getTime();
  const rebuilt = await rebuildPrices(bus, connection.db!, legacyFrom(productModel(connection)), nowMs);
  const live = new PriceStore(connection.db!);
  const { compared, differing } = await compareSeries(rebuilt.store, live, nowMs);
  console.log(
    `rebuilt the price guide from ${rebuilt.events} events (${rebuilt.invalid} unreadable) in ${rebuilt.ms} ms: ${rebuilt.series} series; ` +
      `${compared} compared with the live ones, ${differing.length} differ${differing.length ? `: ${differing.slice(0, 20).join(', ')}` : ''}`,
  );
  if (process.argv.includes('--replace')) {
    await replaceLive(rebuilt.store, live);
    console.log('the rebuilt read model now is the live one');
  } else {
    await rebuilt.store.drop();
    if (differing.length) process.exitCode = 1;
  }
} finally {
  await bus.close();
  await connection.close();
}
