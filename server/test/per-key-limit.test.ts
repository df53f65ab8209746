import { describe, expect, it } from 'vitest';
import { PerKeyLimit } from '../src/lib/per-key-limit.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('PerKeyLimit', () => {
  it('runs at most `limit` calls of one key at once, in the order they came, and other keys freely', async () => {
    const limit = new PerKeyLimit<number>(2);
    let running = 0;
    let most = 0;
    const order: string[] = [];
    const call = (key: number, name: string, fail = false) =>
      limit.run(key, async () => {
        running++;
        most = Math.max(most, running);
        order.push(name);
        await tick();
        running--;
        if (fail) throw new Error(name);
        return name;
      });
    const a = [call(1, 'a1'), call(1, 'a2', true), call(1, 'a3'), call(1, 'a4')];
    const b = call(2, 'b1');
    expect(order).toEqual(['a1', 'a2', 'b1']); // a3 and a4 wait for a place; b1 does not
    const settled = await Promise.allSettled([...a, b]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(order).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
    expect(most).toBe(3); // two of key 1 beside one of key 2
    expect(limit.size).toBe(0); // a failed call gave its place back too
  });
});
