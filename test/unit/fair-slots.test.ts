import { describe, expect, it } from 'vitest';
import { FairSlots } from '../../shared/runs/fair-slots';

/** A call that ends when told to, recording when it started. */
function controlled(log: string[], name: string) {
  let finish!: () => void;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  return { call: () => (log.push(name), ended), finish };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FairSlots', () => {
  it('never runs more calls than it has slots', async () => {
    const slots = new FairSlots(2);
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        slots.run(i % 3 === 0 ? 'a' : 'b', async () => {
          running += 1;
          most = Math.max(most, running);
          await settle();
          running -= 1;
        }),
      ),
    );
    expect(most).toBe(2);
  });

  it('serves a party with one waiting call before another party’s backlog', async () => {
    const slots = new FairSlots(1);
    const log: string[] = [];
    const first = controlled(log, 'big-0');
    const calls = [slots.run('big', first.call)];
    const big = Array.from({ length: 4 }, (_, i) => controlled(log, `big-${i + 1}`));
    for (const c of big) calls.push(slots.run('big', c.call));
    const small = controlled(log, 'small-0');
    calls.push(slots.run('small', small.call));
    await settle();
    expect(log).toEqual(['big-0']);
    first.finish();
    await settle();
    big[0]!.finish();
    await settle();
    // The small party's call came after four of big's, and still goes second in line.
    expect(log).toEqual(['big-0', 'big-1', 'small-0']);
    small.finish();
    for (const c of big.slice(1)) {
      await settle();
      c.finish();
    }
    await Promise.all(calls);
    expect(log).toEqual(['big-0', 'big-1', 'small-0', 'big-2', 'big-3', 'big-4']);
  });

  it('passes a failure to its caller and frees the slot', async () => {
    const slots = new FairSlots(1);
    await expect(slots.run('a', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(slots.run('a', () => Promise.resolve(7))).resolves.toBe(7);
  });
});
