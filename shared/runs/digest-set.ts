/**
 * The digests a run saw of one kind (`inventory-ids.ts`: 13 ASCII characters each), as the sweep
 * and the linking stage look them up. A `Set<string>` costs about 70 bytes an entry with its
 * string, and the sweep of a 100,000-user org holds 400,000 relationship digests: this table
 * keeps them in one buffer of fixed-width slots (open addressing, linear probing, at most three
 * quarters full), 18 to 35 bytes an entry, so the worker stays within its 256 MB.
 */
const EMPTY = 0;

export class DigestSet {
  private slots: Buffer;
  private capacity: number;
  private count = 0;

  constructor(
    private readonly width: number,
    expected = 1024,
  ) {
    this.capacity = DigestSet.capacityFor(expected);
    this.slots = Buffer.alloc(this.capacity * width);
  }

  get size(): number {
    return this.count;
  }

  add(key: string): void {
    this.assertKey(key);
    if ((this.count + 1) * 4 > this.capacity * 3) this.grow();
    const slot = this.find(key);
    if (this.slots[slot * this.width] !== EMPTY) return;
    this.slots.write(key, slot * this.width, 'latin1');
    this.count += 1;
  }

  has(key: string): boolean {
    if (key.length !== this.width) return false;
    return this.slots[this.find(key) * this.width] !== EMPTY;
  }

  /** The slot holding `key`, or the empty slot where it would go. */
  private find(key: string): number {
    const mask = this.capacity - 1;
    for (let slot = hashOf(key) & mask; ; slot = (slot + 1) & mask) {
      const at = slot * this.width;
      if (this.slots[at] === EMPTY) return slot;
      let same = true;
      for (let i = 0; i < this.width && same; i++) same = this.slots[at + i] === key.charCodeAt(i);
      if (same) return slot;
    }
  }

  private grow(): void {
    const old = this.slots;
    const oldCapacity = this.capacity;
    this.capacity *= 2;
    this.slots = Buffer.alloc(this.capacity * this.width);
    this.count = 0;
    for (let slot = 0; slot < oldCapacity; slot++) {
      const at = slot * this.width;
      if (old[at] !== EMPTY) this.add(old.toString('latin1', at, at + this.width));
    }
  }

  /** Digests are printable ASCII (never NUL, which marks an empty slot) of the set's width. */
  private assertKey(key: string): void {
    // A loop, not a regular expression: the sweep adds every digest of the run (600,000 at 100,000 users).
    let printable = key.length === this.width;
    for (let i = 0; i < key.length && printable; i++) printable = key.charCodeAt(i) > 0x20 && key.charCodeAt(i) < 0x7f;
    if (!printable) throw new Error(`not a digest of ${this.width} characters: ${JSON.stringify(key)}`);
  }

  private static capacityFor(expected: number): number {
    let capacity = 16;
    while (capacity * 3 < expected * 4) capacity *= 2;
    return capacity;
  }
}

/** FNV-1a over the key's characters. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
