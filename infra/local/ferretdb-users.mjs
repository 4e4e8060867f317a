// Run by infra/local/ferretdb.sh as FerretDB's administrator right after FerretDB starts
// (docs/adr/0017): lists the databases first, so FerretDB 1.x loads its catalogue of databases with
// every schema in view (it keeps the first client's view), and creates each service's database if
// it is missing, so the service's own PostgreSQL role, which may not create databases, finds it.
//   MONGO_URL=mongodb://ferretdb:…@127.0.0.1:27017/?authMechanism=PLAIN node ferretdb-users.mjs profile catalog media orders moderation
import { MongoClient } from 'mongodb';

const client = new MongoClient(process.env.MONGO_URL, { serverSelectionTimeoutMS: 10_000 });
try {
  await client.connect();
  const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
  const existing = new Set(databases.map((d) => d.name));
  for (const name of process.argv.slice(2)) {
    if (existing.has(name)) continue;
    // A database exists in FerretDB once it holds a collection; dropping it again leaves the database.
    await client.db(name).createCollection('_created');
    await client.db(name).dropCollection('_created');
  }
} finally {
  await client.close();
}
