// jq-web ships no types: its CommonJS export is a promise of the instantiated jq (WebAssembly).
declare module 'jq-web' {
  interface JqWeb {
    /** Runs jq like `printf %s input | jq flags filter`; returns stdout, or undefined when empty. */
    raw(input: string, filter: string, flags?: string[]): string | undefined;
  }
  const ready: Promise<JqWeb>;
  export default ready;
}
