// Types for gen-wire-checks.mjs, for the test that compares the checks with their schemas.
export declare const CHECKS_FILE: URL;
export declare const SCHEMA_MODULES: string[];
export declare function schemaFields(schema: unknown, prefix?: string): string[];
export declare function checksSource(schemas: Record<string, unknown>): string;
