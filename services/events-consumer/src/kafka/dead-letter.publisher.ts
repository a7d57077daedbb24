import type { KafkaConfig } from '@framedeck/config';
import { compressionType, DEAD_LETTER_HEADERS, originalHeaders, type Producer } from '@framedeck/kafka';

export type DeadLetterSource = {
  topic: string;
  partition: number;
  offset: string;
  key?: Buffer | null;
  value: Buffer | null;
  headers?: Record<string, Buffer | string | (Buffer | string)[] | undefined>;
};

/**
 * Parks a message that can never be processed on the dead-letter topic, unchanged (value, key,
 * headers), with the reason and its origin in headers, so an operator can inspect it and
 * replay it (`framedeck dlq replay`). The caller resolves the original offset only after this
 * resolves (acks = all): nothing is lost. The record fits: the gateway left room for these
 * headers under the record-batch cap (libs/kafka DEAD_LETTER_HEADROOM_BYTES).
 */
export class DeadLetterPublisher {
  private connected: Promise<void> | undefined;

  constructor(
    private readonly producer: Producer,
    private readonly config: Pick<KafkaConfig, 'deadLetterTopic' | 'producer'>,
  ) {}

  async publish(message: DeadLetterSource, reason: string): Promise<void> {
    this.connected ??= this.producer.connect().catch((error: unknown) => {
      this.connected = undefined;
      throw error;
    });
    await this.connected;
    await this.producer.send({
      topic: this.config.deadLetterTopic,
      acks: -1,
      compression: compressionType(this.config.producer.compression),
      messages: [
        {
          key: message.key ?? null,
          value: message.value,
          headers: {
            ...originalHeaders(message.headers),
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
