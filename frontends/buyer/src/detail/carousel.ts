// The product carousel's stepping: previous and next wrap around at both ends.

/** The index `step` places away from `index` in a ring of `length` images (0 when there are none). */
export function wrapIndex(index: number, step: number, length: number): number {
  if (length <= 0) return 0;
  return (((index + step) % length) + length) % length;
}

export const nextIndex = (index: number, length: number) => wrapIndex(index, 1, length);
export const previousIndex = (index: number, length: number) => wrapIndex(index, -1, length);
