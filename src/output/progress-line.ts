// One status line on stderr for bulk runs on a terminal ("57/200 · waiting until 14:05"),
// redrawn in place. Plain writes with ANSI erase codes: nothing hooks the streams, so output
// printed meanwhile (the summary, an error) is never garbled once the line is cleared.
export interface ProgressLine {
  update(text: string): void;
  /** Erases the line (before anything else is printed for good). */
  clear(): void;
}

export function progressLine(stream: { write(s: string): boolean }, enabled: boolean): ProgressLine {
  if (!enabled) return { update() {}, clear() {} };
  let shown = false;
  let last = '';
  return {
    update(text) {
      if (text === last) return;
      last = text;
      stream.write(`\r\u001b[2K${text}`);
      shown = true;
    },
    clear() {
      if (shown) stream.write('\r\u001b[2K');
      shown = false;
      last = '';
    },
  };
}
