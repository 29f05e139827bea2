// The ids of the most recently yielded rows, to drop repeats when rows shift between pages.
// Bounded: a couple of pages' worth, not every id ever seen, so `--all` stays in constant memory.
export class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly capacity: number) {}

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    if (this.ids.has(id)) return;
    this.ids.add(id);
    // A Set iterates in insertion order: the first entry is the oldest.
    while (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value as string);
  }

  get size(): number {
    return this.ids.size;
  }
}
