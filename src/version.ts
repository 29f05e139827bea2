// The package's version, on its own: the compile cache (bundled alone, loaded before the program)
// keys its folder by it, and --version prints it without reading package.json.

/** Kept in step with package.json by a unit test; a constant so `--version` reads no file. */
export const VERSION = '0.1.0';
