/**
 * Runs a service's start-up. A configuration error prints its message (which names every bad
 * variable) and exits with EX_CONFIG (78) instead of a stack trace; any other start-up
 * failure exits 1.
 */
export function runMain(service: string, start: () => Promise<void>): void {
  start().catch((error: unknown) => {
    const err = error as Error;
    if (err?.name === 'ConfigError') {
      console.error(`${service}: ${err.message}`);
      process.exit(78);
    }
    console.error(`${service}: failed to start:`, err);
    process.exit(1);
  });
}
