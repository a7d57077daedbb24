/**
 * How a message parked on the dead-letter topic is marked: the original record unchanged
 * (value, key, envelope headers) plus these headers saying why and where from. The consumer
 * writes them (events-consumer dead-letter.publisher.ts); `framedeck dlq replay` reads and
 * removes them.
 */
export const DEAD_LETTER_HEADERS = {
  reason: 'fd-dead-letter-reason',
  sourceTopic: 'fd-dead-letter-source-topic',
  sourcePartition: 'fd-dead-letter-source-partition',
  sourceOffset: 'fd-dead-letter-source-offset',
  at: 'fd-dead-lettered-at-ms',
} as const;

type RawHeaders = Readonly<Record<string, Buffer | string | (Buffer | string)[] | undefined>> | undefined;

const MARKS = new Set<string>(Object.values(DEAD_LETTER_HEADERS));

/** The record's own headers, without the dead-letter marks (first value of repeated ones). */
export function originalHeaders(headers: RawHeaders): Record<string, Buffer | string> {
  const out: Record<string, Buffer | string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined || MARKS.has(name)) continue;
    out[name] = Array.isArray(value) ? value[0]! : value;
  }
  return out;
}

/** What the marks say; `at` is NaN when the header is missing or malformed. */
export function deadLetterMarks(headers: RawHeaders): { reason: string; at: number } {
  const read = (name: string) => {
    const value = headers?.[name];
    return (Array.isArray(value) ? value[0] : value)?.toString();
  };
  return { reason: read(DEAD_LETTER_HEADERS.reason) ?? 'unknown', at: Number(read(DEAD_LETTER_HEADERS.at) ?? NaN) };
}
