// Remembers recently seen webhook ids so that retried deliveries (same webhook-id) are answered
// 2xx but shown once. Bounded: the oldest ids are forgotten first, so memory stays flat on a
// listener that runs for days.
export class SeenIds {
  private readonly ids = new Set<string>();
  constructor(private readonly capacity: number) {}

  /** True when the id was already seen; otherwise records it and returns false. */
  checkAndAdd(id: string): boolean {
    if (this.ids.has(id)) return true;
    this.ids.add(id);
    if (this.ids.size > this.capacity) {
      // A Set iterates in insertion order, so the first entry is the oldest.
      const oldest = this.ids.values().next().value;
      if (oldest !== undefined) this.ids.delete(oldest);
    }
    return false;
  }

  get size(): number {
    return this.ids.size;
  }
}
