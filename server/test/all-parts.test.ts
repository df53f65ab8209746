import { describe, expect, it } from 'vitest';
import { allParts } from '../src/db/tx.ts';

// Parts of one operation sent together inside its transaction (lines/create.ts): a failure is
// thrown only once every part has finished, so nothing of the operation runs after its rollback.

describe('allParts', () => {
  it('answers every part in order when all succeed', async () => {
    expect(await allParts([Promise.resolve(1), Promise.resolve('two')])).toEqual([1, 'two']);
  });

  it('throws the first failure only after the slower parts have finished', async () => {
    const finished: string[] = [];
    const slow = new Promise<void>((resolve) => setTimeout(() => {
      finished.push('slow');
      resolve();
    }, 30));
    const failing = Promise.reject(new Error('log refused'));
    await expect(allParts([failing, slow])).rejects.toThrow('log refused');
    expect(finished).toEqual(['slow']);
  });
});
