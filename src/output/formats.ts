// The output formats, defined once: the global -o flag offers these, in this order.

export const FORMATS = ['table', 'tsv', 'csv', 'json', 'ndjson', 'ics'] as const;

export type Format = (typeof FORMATS)[number];

/** Formats a program reads as JSON (human text then goes to stderr). */
export const isJsonFormat = (format: Format): boolean => format === 'json' || format === 'ndjson';
