import type { Producer } from '@framedeck/kafka';

export type DeadLetterSource = {
  topic: string;
  partition: number;
  offset: string;
  value: Buffer | null;
  headers?: Record<string, Buffer | string | (Buffer | string)[] | undefined>;
};

export const DEAD_LETTER_HEADERS = {
  reason: 'fd-dead-letter-reason',
  sourceTopic: 'fd-dead-letter-source-topic',
  sourcePartition: 'fd-dead-letter-source-partition',
  sourceOffset: 'fd-dead-letter-source-offset',
  at: 'fd-dead-lettered-at-ms',
} as const;

/**
 * Parks a message that can never be processed on the dead-letter topic, unchanged, with the
 * reason and its origin in headers, so an operator can inspect and replay it. The caller
 * resolves the original offset only after this resolves (acks = all): nothing is lost.
 */
export class DeadLetterPublisher {
  private connected: Promise<void> | undefined;

  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
  ) {}

  async publish(message: DeadLetterSource, reason: string): Promise<void> {
    this.connected ??= this.producer.connect().catch((error: unknown) => {
      this.connected = undefined;
      throw error;
    });
    await this.connected;
    const headers: Record<string, Buffer | string> = {};
    for (const [name, value] of Object.entries(message.headers ?? {})) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value[0]! : value;
    }
    await this.producer.send({
      topic: this.topic,
      acks: -1,
      messages: [
        {
          value: message.value,
          headers: {
            ...headers,
            [DEAD_LETTER_HEADERS.reason]: reason.slice(0, 1000),
            [DEAD_LETTER_HEADERS.sourceTopic]: message.topic,
            [DEAD_LETTER_HEADERS.sourcePartition]: String(message.partition),
            [DEAD_LETTER_HEADERS.sourceOffset]: message.offset,
            [DEAD_LETTER_HEADERS.at]: String(Date.now()),
          },
        },
      ],
    });
  }

  async close(): Promise<void> {
    if (this.connected) await this.producer.disconnect();
  }
}
