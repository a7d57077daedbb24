import { readFileSync } from 'node:fs';
import { UsageError } from './accounts.command.js';

/**
 * A key kept in a file (its first line): how the CLI takes keys on the command line without
 * showing them to every user of the machine (ps, /proc/<pid>/cmdline), as a flag value would.
 */
export function readKeyFile(flag: string, path: string): string {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--${flag} ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  const key = content.split(/\r?\n/)[0]!.trim();
  if (!key) throw new UsageError(`--${flag} ${path} is empty`);
  return key;
}
