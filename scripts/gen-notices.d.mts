/** Where the bundle step leaves esbuild's metafile (read by the notices and the manifest test). */
export declare const METAFILE: string;
export declare const NOTICES: string;
export declare function bundledPackages(): string[];
