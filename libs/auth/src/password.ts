import { hash, verify } from '@node-rs/argon2';

// Argon2id with OWASP's recommended floor (19 MiB, 2 passes): memory-hard, so offline guessing
// of a leaked hash is expensive on GPUs.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false; // malformed hash: treat as a failed sign-in, never as an error page
  }
}
