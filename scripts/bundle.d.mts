// Types for bundle.mjs, for the tests that build with the same pipeline as `npm run bundle`.
export declare const ENTRY_POINTS: string[];
export declare const esmOptions: { external: string[]; outbase: string } & Record<string, unknown>;
export declare function toCommonJs(code: string, file: string): Promise<string>;
export declare const LAYERS: Array<{ file: string; roots: string[] }>;
export declare function bundle(options: { entryPoints: string[]; outdir: string; outbase?: string; layers?: Array<{ file: string; roots: string[] }>; alone?: string[] }): Promise<unknown>;
export declare function bundleCompileCache(outdir: string): Promise<void>;
