/**
 * Deterministic randomness for the demo seed: every generated row draws from its own stream,
 * seeded by (namespace, index). Row N is the same whatever else was generated before it, so
 * reseeding and growing a catalogue (`--suites` larger than before) are reproducible.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static for(namespace: string, index: number): Rng {
    let h = 2166136261; // FNV-1a over the namespace, then mixed with the index
    for (let i = 0; i < namespace.length; i++) h = Math.imul(h ^ namespace.charCodeAt(i), 16777619);
    return new Rng(Math.imul(h ^ index, 2654435761) ^ (index >>> 16));
  }

  /** mulberry32: uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Picks a key with probability proportional to its weight. */
  weighted<K extends string>(weights: Record<K, number>): K {
    const entries = Object.entries(weights) as [K, number][];
    let r = this.next() * entries.reduce((s, [, w]) => s + w, 0);
    for (const [k, w] of entries) if ((r -= w) < 0) return k;
    return entries[entries.length - 1][0];
  }

  /** Random [a-z0-9] string (share codes, passwords of network-drive links). */
  code(length: number, alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"): string {
    let s = "";
    for (let i = 0; i < length; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }
}
