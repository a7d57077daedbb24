/**
 * Every pipeline step says what should happen to its input, explicitly, and one place acts on
 * each kind:
 *  - a Kafka message is `ok` (go on with the decoded batch) or `dead-letter` (nothing in it can
 *    be used, e.g. it does not decode: the consumer loop parks it on the dead-letter topic);
 *  - an event is `ok` (it becomes a row) or `drop` (invalid: validateBatch counts it under
 *    `reason` for the project's rejection counts).
 */
export type Ok<T> = { kind: 'ok'; value: T };
export type Drop = { kind: 'drop'; reason: string };
export type DeadLetter = { kind: 'dead-letter'; reason: string };

export type MessageOutcome<T> = Ok<T> | DeadLetter;
export type EventOutcome<T> = Ok<T> | Drop;

export const ok = <T>(value: T): Ok<T> => ({ kind: 'ok', value });
export const drop = (reason: string): Drop => ({ kind: 'drop', reason });
export const deadLetter = (reason: string): DeadLetter => ({ kind: 'dead-letter', reason });
