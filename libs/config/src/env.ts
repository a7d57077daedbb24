import { z } from 'zod';

/** The process environment, or any record shaped like it (tests pass their own). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Thrown when the environment holds a value we cannot use. The message names every bad
 * variable so an operator can fix them all in one go instead of one restart per typo.
 */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the variables named by `shape` out of `env`. Keys of `shape` are the variable names,
 * so every zod issue path is the name an operator has to fix.
 * NOTE: empty strings count as "not set": `FOO= npm start` should fall back to the default.
 */
export function readEnv<S extends z.ZodRawShape>(shape: S, env: Env): z.infer<z.ZodObject<S>> {
  recorderOf(env)?.(shape);
  const present: Record<string, string> = {};
  for (const name of Object.keys(shape)) {
    const value = env[name];
    if (value !== undefined && value !== '') present[name] = value;
  }
  const result = z.object(shape).safeParse(present);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? '(environment)');
      const given = present[name];
      return given === undefined ? `${name}: ${issue.message}` : `${name}=${redact(name, given)}: ${issue.message}`;
    }),
  );
}

const RECORDER = Symbol('framedeck.config.recorder');
type Recorder = (shape: z.ZodRawShape) => void;

/**
 * An empty environment that remembers the schema of every variable a loader reads. Loading a
 * service's configuration from it lists that service's variables with their types and defaults
 * (docs/configuration.md is generated this way, so it cannot drift from the schemas).
 */
export function recordingEnv(): { source: Env; variables: Map<string, z.core.$ZodType> } {
  const variables = new Map<string, z.core.$ZodType>();
  const record: Recorder = (shape) => {
    for (const [name, schema] of Object.entries(shape)) variables.set(name, schema);
  };
  return { source: Object.defineProperty({}, RECORDER, { value: record, enumerable: true }) as Env, variables };
}

function recorderOf(env: Env): Recorder | undefined {
  return (env as { [RECORDER]?: Recorder })[RECORDER];
}

/** Secrets are never echoed back, even in a start-up error. */
function redact(name: string, value: string): string {
  if (/PASSWORD|SECRET|TOKEN|KEY/i.test(name)) return '(hidden)';
  if (/_URL$/.test(name)) return value.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:(hidden)@');
  return JSON.stringify(value);
}

/** Combines several section readers so that all their problems are reported together. */
export function collectSections<T extends Record<string, () => unknown>>(
  readers: T,
): Readonly<{ [K in keyof T]: ReturnType<T[K]> }> {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [section, read] of Object.entries(readers)) {
    try {
      out[section] = read();
    } catch (error) {
      if (error instanceof ConfigError) problems.push(...error.problems);
      else throw error;
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return deepFreeze(out) as { [K in keyof T]: ReturnType<T[K]> };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Common field types, so that every service coerces the same way. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback),
  positiveInt: (fallback: number) => z.coerce.number().int().positive().default(fallback),
  nonNegativeInt: (fallback: number) => z.coerce.number().int().min(0).default(fallback),
  string: (fallback: string) => z.string().min(1).default(fallback),
  url: (fallback: string) => z.url().default(fallback),
  host: (fallback: string) => z.string().min(1).default(fallback),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .transform((v) => v === 'true' || v === '1' || v === 'yes')
      .default(fallback),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  list: (fallback: string[]) =>
    z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().min(1)).min(1))
      .default(fallback),
};
