/**
 * A fixed number of slots shared by several parties, handed out in turn: when slots are short,
 * a party waiting with one call goes before another party's next call. A run step gives its
 * tracks' table calls to one of these, so a track that writes a lot (Okta's users: three items
 * per user) cannot queue ahead of one whose provider paces it (Okta's groups, the busiest rate
 * limit): that track's quota, unused in its window, would be lost.
 */
export class FairSlots {
  private inUse = 0;
  /** Waiting calls per party, and the parties in the order they are served. */
  private readonly waiting = new Map<string, (() => void)[]>();
  private turn: string[] = [];

  constructor(private readonly size: number) {
    if (!(size >= 1)) throw new RangeError('FairSlots needs at least one slot');
  }

  /** Runs `call` in a slot taken in `party`'s turn. */
  async run<T>(party: string, call: () => Promise<T>): Promise<T> {
    await this.acquire(party);
    try {
      return await call();
    } finally {
      this.release();
    }
  }

  private acquire(party: string): Promise<void> {
    if (this.inUse < this.size) {
      this.inUse += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let queue = this.waiting.get(party);
      if (!queue) {
        this.waiting.set(party, (queue = []));
        this.turn.push(party);
      }
      queue.push(resolve);
    });
  }

  private release(): void {
    const party = this.turn.shift();
    if (party === undefined) {
      this.inUse -= 1;
      return;
    }
    const queue = this.waiting.get(party)!;
    const next = queue.shift()!;
    // Served: to the back of the line if it still waits with more.
    if (queue.length > 0) this.turn.push(party);
    else this.waiting.delete(party);
    next(); // the slot passes straight to it
  }
}
