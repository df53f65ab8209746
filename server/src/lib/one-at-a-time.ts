/**
 * Runs the calls made with one key one after another, in the order they came; calls with other
 * keys run freely. Within this process only (PostgreSQL can run several server processes).
 */
export class OneAtATime {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(fn, fn);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with calls running or waiting (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
