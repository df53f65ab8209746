/**
 * Runs at most `limit` calls with one key at a time; the others wait their turn in the order they
 * came. Calls with other keys run freely. Within this process only (PostgreSQL can run several
 * server processes).
 */
export class PerKeyLimit<K = string> {
  private readonly keys = new Map<K, { running: number; waiting: (() => void)[] }>();

  constructor(private readonly limit: number) {}

  async run<T>(key: K, fn: () => Promise<T>): Promise<T> {
    const slot = this.keys.get(key) ?? { running: 0, waiting: [] };
    this.keys.set(key, slot);
    if (slot.running < this.limit) slot.running++;
    else await new Promise<void>((resolve) => slot.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = slot.waiting.shift();
      if (next) next(); // hands its place on
      else if (--slot.running === 0) this.keys.delete(key);
    }
  }

  /** Keys with calls running or waiting (for tests). */
  get size(): number {
    return this.keys.size;
  }
}
