#!/usr/bin/env node
// Entry only: all logic lives in dist/main.js (built from src/main.ts).
import { main } from '../dist/main.js';
process.exitCode = await main(process.argv.slice(2));
