// Reading what a server's log got during a scenario: its size before, then the lines written after.
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';

/** The file's size in bytes (0 when it does not exist yet). */
export const sizeOf = (file: string): number => (existsSync(file) ? statSync(file).size : 0);

/** The lines written to `file` after byte `from`. */
export function linesSince(file: string, from: number): string[] {
  const size = sizeOf(file);
  if (size <= from) return [];
  const buffer = Buffer.alloc(size - from);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, from);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8').split('\n');
}
