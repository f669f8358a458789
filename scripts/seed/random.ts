/**
 * A small seeded random generator (sfc32, 128-bit state) so `--seed n` reproduces the same data.
 * A 32-bit generator would not do: its state space is small enough that a million UUIDs drawn
 * from it collide.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** Each stream (one per table) gets its own sequence, so changing one table leaves the others as they were. */
  constructor(seed: number, stream: string) {
    let state = (seed ^ 0x9e3779b9) >>> 0;
    for (const char of stream) state = Math.imul(state ^ char.charCodeAt(0), 0x01000193) >>> 0;
    // splitmix32 spreads the one seed word over the four state words.
    const next = () => {
      state = (state + 0x9e3779b9) >>> 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
      z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
      return (z ^ (z >>> 15)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks by weight; `entries` are [value, weight] pairs. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1]![0];
  }

  /** A version 4 UUID made of this generator's bits. */
  uuid(): string {
    const hex = (value: number) => value.toString(16).padStart(8, '0');
    const first = hex(this.uint32());
    const second = hex(((this.uint32() & 0xffff0fff) | 0x00004000) >>> 0);
    const third = hex(((this.uint32() & 0x3fffffff) | 0x80000000) >>> 0);
    const fourth = hex(this.uint32());
    return `${first}-${second.slice(0, 4)}-${second.slice(4)}-${third.slice(0, 4)}-${third.slice(4)}${fourth}`;
  }

  /** Shuffles in place (Fisher–Yates) and answers the same array. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}

/**
 * Splits `total` into whole parts proportional to `weights` (largest remainder), so the parts
 * add up to exactly `total`.
 */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (weights.length === 0 || sum <= 0) return weights.map(() => 0);
  const exact = weights.map((weight) => (total * weight) / sum);
  const parts = exact.map(Math.floor);
  let missing = total - parts.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((value, index) => [value - Math.floor(value), index] as const).sort((x, y) => y[0] - x[0] || x[1] - y[1]);
  for (const [, index] of byRemainder) {
    if (missing <= 0) break;
    parts[index]!++;
    missing--;
  }
  return parts;
}
