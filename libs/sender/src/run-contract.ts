import type { TelemetryEventInput } from '@framedeck/proto';

/**
 * The run contract (docs/automated-runs.md): what a CI job, or `framedeck run-profile-test`,
 * tells the game it launches through the environment, and how the sender stamps it on every
 * event. The names are declared here once; the CLI exports them from this table.
 */
export const RUN_ENV = {
  /** Fills build_id of events that have none. */
  buildId: 'FRAMEDECK_BUILD_ID',
  branch: 'FRAMEDECK_GIT_BRANCH',
  commit: 'FRAMEDECK_GIT_COMMIT',
  scenario: 'FRAMEDECK_TEST_SCENARIO',
  /** Where and with which key the sender posts when its options do not say. */
  ingestUrl: 'FRAMEDECK_INGEST_URL',
  ingestKey: 'FRAMEDECK_INGEST_KEY',
} as const;

/** The event attributes the branch, commit and scenario travel in (queryable as attributes['run.branch']). */
export const RUN_ATTRIBUTES = {
  branch: 'run.branch',
  commit: 'run.commit',
  scenario: 'run.scenario',
} as const;

/** What one automated run says about itself; every part optional. */
export type RunContext = {
  buildId?: string | undefined;
  branch?: string | undefined;
  commit?: string | undefined;
  scenario?: string | undefined;
};

type RunField = keyof RunContext;
const RUN_FIELDS = ['buildId', 'branch', 'commit', 'scenario'] as const satisfies readonly RunField[];

export type EnvSource = Readonly<Record<string, string | undefined>>;

/** The run context of the environment; unset or blank variables are absent. */
export function runContextFromEnv(env: EnvSource): RunContext {
  const run: RunContext = {};
  for (const field of RUN_FIELDS) {
    const value = env[RUN_ENV[field]]?.trim();
    if (value) run[field] = value;
  }
  return run;
}

/** The environment variables that hand `run` to a child process (the inverse of runContextFromEnv). */
export function runContextEnv(run: RunContext): Record<string, string> {
  const env: Record<string, string> = {};
  for (const field of RUN_FIELDS) {
    const value = run[field];
    if (value) env[RUN_ENV[field]] = value;
  }
  return env;
}

/**
 * Stamps the run on events: build_id where the event has none, the run's branch, commit and
 * scenario as attributes where the event does not set them itself (an event's own value always
 * wins: a game that knows better is not overruled). Returns `events` itself for an empty run,
 * so a sender outside any run copies nothing.
 */
export function applyRunContext(
  events: readonly TelemetryEventInput[],
  run: RunContext,
): readonly TelemetryEventInput[] {
  const attributes: Record<string, string> = {};
  for (const field of ['branch', 'commit', 'scenario'] as const) {
    const value = run[field];
    if (value) attributes[RUN_ATTRIBUTES[field]] = value;
  }
  const hasAttributes = Object.keys(attributes).length > 0;
  if (!run.buildId && !hasAttributes) return events;
  // NOTE: Object.assign, not an object spread: measured here, protobufjs encodes events copied
  // by `{ ...event, buildId }` 3–4× slower than the originals (V8 gives such copies a slow
  // shape), and Object.assign copies as fast as encoding the originals.
  return events.map((event) =>
    Object.assign({}, event, {
      buildId: event.buildId || run.buildId || '',
      ...(hasAttributes
        ? { attributes: event.attributes ? Object.assign({}, attributes, event.attributes) : attributes }
        : {}),
    }),
  );
}
