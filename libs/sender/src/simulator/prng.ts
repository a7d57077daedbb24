/** mulberry32: a tiny, fast, seedable PRNG. Same seed, same sequence, on every platform. */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Standard normal (Box-Muller). */
  gaussian(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  pick<T>(weighted: readonly (readonly [T, number])[]): T {
    const total = weighted.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.next() * total;
    for (const [value, weight] of weighted) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return weighted[weighted.length - 1]![0];
  }

  /** A 32-bit value derived from a seed and a label, for independent per-entity streams. */
  static derive(seed: number, label: number): number {
    return Math.imul((seed ^ 0x9e3779b9) + label * 0x85ebca6b, 0xc2b2ae35) >>> 0;
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length)
      out += Math.floor(this.next() * 0x1_0000_0000)
        .toString(16)
        .padStart(8, '0');
    return out.slice(0, length);
  }
}
