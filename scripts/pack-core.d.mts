// Types for pack-core.mjs (the core pack of `npm run bundle`), for its tests.
export declare function packCore(files: Map<string, string>, roots: string[]): { files: Map<string, string>; packed: string[] };
