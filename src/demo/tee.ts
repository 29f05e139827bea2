// A stream that passes everything to the real terminal and keeps a copy, so the demo can show a
// step's output and still read it.

/** What the demo writes to: the terminal, or a copy of it. */
export interface OutStream {
  write(chunk: string): boolean;
  isTTY?: boolean;
  columns?: number;
}

export interface TeeStream extends OutStream {
  text(): string;
  reset(): void;
}

export function tee(target: OutStream, echo = true): TeeStream {
  let buffer = '';
  return {
    isTTY: target.isTTY,
    columns: target.columns,
    write(chunk: string) {
      buffer += chunk;
      return echo ? target.write(chunk) : true;
    },
    text: () => buffer,
    reset() {
      buffer = '';
    },
  };
}
