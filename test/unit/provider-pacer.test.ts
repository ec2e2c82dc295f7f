/**
 * The step pacer: requests wait as the provider's rate-limit answers say, a wait that would
 * outlast the step defers it, an aborted step stops waiting, and the next step starts from the
 * buckets this one saw. Time is a fake clock moved by vitest's fake timers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStepPacer, StepDeferredError } from '../../shared/runs/provider-pacer';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

const pacerOf = (deadlineMs: number, initial?: Parameters<typeof createStepPacer>[0]['initial']) => {
  const controller = new AbortController();
  const pacer = createStepPacer({ now: () => Date.now(), deadlineMs, abort: () => controller.abort(), initial });
  return { pacer, controller };
};

describe('the step pacer', () => {
  it('counts requests down a reported window and waits for its reset once it is spent, then forgets it', async () => {
    const { pacer, controller } = pacerOf(1_000_000 + 60_000);
    pacer.observe('users', { remaining: 1, resetAtMs: 1_000_000 + 5_000 });
    await pacer.wait('users', controller.signal);
    expect(pacer.waitedMs).toBe(0);
    const second = pacer.wait('users', controller.signal);
    await vi.advanceTimersByTimeAsync(5_000);
    await second;
    expect(pacer.waitedMs).toBe(5_000);
    expect(pacer.requests).toBe(2);
    // The window reset while waiting: nothing is known of the new one, so nothing is kept.
    expect(pacer.snapshot()).toEqual({});
  });

  it('keeps a window that has not reset yet when the wait was for a Retry-After', async () => {
    const { pacer, controller } = pacerOf(1_000_000 + 60_000);
    pacer.observe('apps', { remaining: 10, resetAtMs: 1_000_000 + 30_000, retryAtMs: 1_000_000 + 2_000 });
    const waiting = pacer.wait('apps', controller.signal);
    await vi.advanceTimersByTimeAsync(2_000);
    await waiting;
    expect(pacer.waitedMs).toBe(2_000);
    expect(pacer.snapshot()).toEqual({ apps: { remaining: 9, resetAtMs: 1_000_000 + 30_000, retryAtMs: 1_000_000 + 2_000 } });
  });

  it('defers the step instead of waiting past its deadline, and aborts it', async () => {
    const { pacer, controller } = pacerOf(1_000_000 + 1_000, { groups: { remaining: 0, resetAtMs: 1_000_000 + 90_000 } });
    await expect(pacer.wait('groups', controller.signal)).rejects.toBeInstanceOf(StepDeferredError);
    expect(pacer.deferUntilMs).toBe(1_000_000 + 90_000);
    expect(controller.signal.aborted).toBe(true);
    expect(pacer.requests).toBe(0);
    // A later, earlier defer does not move the resume time back.
    pacer.defer(1_000_000 + 10_000);
    expect(pacer.deferUntilMs).toBe(1_000_000 + 90_000);
  });

  it('stops a wait when the step is aborted, and refuses to start one on an aborted step', async () => {
    const { pacer, controller } = pacerOf(1_000_000 + 60_000);
    pacer.observe('users', { retryAtMs: 1_000_000 + 10_000 });
    const waiting = expect(pacer.wait('users', controller.signal)).rejects.toBeInstanceOf(StepDeferredError);
    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort();
    await waiting;
    expect(pacer.waitedMs).toBe(0);
    await expect(pacer.wait('other', controller.signal)).rejects.toBeInstanceOf(StepDeferredError);
    expect(pacer.requests).toBe(0);
  });

  it('starts from the buckets of the last step, and counts waits made outside it', async () => {
    const { pacer, controller } = pacerOf(1_000_000 + 60_000, { users: { remaining: 3, resetAtMs: 1_000_000 + 20_000 } });
    await pacer.wait('users', controller.signal);
    pacer.waited(250);
    expect(pacer.waitedMs).toBe(250);
    expect(pacer.snapshot()).toEqual({ users: { remaining: 2, resetAtMs: 1_000_000 + 20_000 } });
  });
});
