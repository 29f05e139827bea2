export * from './platforms.js';
export * from './protocol.js';
export * from './schemas.js';
export * from './webhook-signing.js';
export * from './text-length.js';
export * from './text-limits.js';
