import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * A directory of the calling test file's own under the system's tmp: made before its tests,
 * removed with its contents after them. Returns the path's getter (set once beforeAll ran).
 */
export function useTempDir(prefix: string): () => string {
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return () => {
    if (!dir) throw new Error(`useTempDir(${prefix}): read before beforeAll ran`);
    return dir;
  };
}
