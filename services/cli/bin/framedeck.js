#!/usr/bin/env node
// Thin launcher: the command itself is compiled TypeScript (npm run build).
import { main } from '../dist/main.js';

process.exitCode = await main(process.argv.slice(2));
