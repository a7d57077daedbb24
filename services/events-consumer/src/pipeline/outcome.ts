/**
 * Every pipeline step says what should happen to its input, explicitly, and one place (the
 * consumer loop) acts on it:
 *  - ok: go on with the value;
 *  - drop: discard it and count it under `reason` (an invalid event);
 *  - dead-letter: park the whole Kafka message on the dead-letter topic with `reason`
 *    (nothing in it can be used, e.g. it does not decode).
 */
export type Outcome<T> =
  { kind: 'ok'; value: T } | { kind: 'drop'; reason: string } | { kind: 'dead-letter'; reason: string };

export const ok = <T>(value: T): Outcome<T> => ({ kind: 'ok', value });
export const drop = (reason: string): { kind: 'drop'; reason: string } => ({ kind: 'drop', reason });
export const deadLetter = (reason: string): { kind: 'dead-letter'; reason: string } => ({
  kind: 'dead-letter',
  reason,
});
