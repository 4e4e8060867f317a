// The read model's state on the metrics endpoint (docs/observability.md, docs/adr/0061): whether
// reads go to MongoDB, whether its Redis is full, how much of its memory budget is used, and how many
// reads MongoDB served in its place.
import { observeGauge, serviceCounter } from '@tuber/kit';
import type { ReadKind, ReadModel } from '../domain/read-model.js';

/** Counts the reads served from MongoDB because the copy could not answer, by kind of read. */
export function databaseReadCounter(): (read: ReadKind) => void {
  const add = serviceCounter(
    'tuber.catalog.read_model.database_reads',
    'Reads served from MongoDB because the read model could not answer (rebuilding, its Redis away or full), by read',
  );
  return (read) => add({ read });
}

export function watchReadModel(readModel: ReadModel): void {
  observeGauge(
    'tuber.catalog.read_model.degraded',
    '1 while reads are served from MongoDB (the read model is rebuilding, or its Redis is away or full), else 0',
    () => [{ value: Number(readModel.health().degraded) }],
  );
  observeGauge(
    'tuber.catalog.read_model.full',
    "1 while the read model's Redis refuses writes for memory (maxmemory) and the copy waits for room, else 0",
    () => [{ value: Number(readModel.health().full) }],
  );
  observeGauge(
    'tuber.catalog.read_model.memory',
    "Bytes the read model's Redis uses (kind=used) and may use (kind=max; 0: no budget)",
    async () => {
      const { usedBytes, maxBytes } = await readModel.memory();
      return [
        { value: usedBytes, attributes: { kind: 'used' } },
        { value: maxBytes, attributes: { kind: 'max' } },
      ];
    },
  );
}
