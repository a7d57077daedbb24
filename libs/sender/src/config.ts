import type { EnvSource } from './run-contract.js';

/**
 * The environment a TelemetrySender reads when its options give none: the one place this
 * library touches process.env (the run contract and the ingest fallbacks, run-contract.ts).
 */
export function processEnvironment(): EnvSource {
  return process.env;
}
