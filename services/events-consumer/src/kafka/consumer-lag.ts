import type { Admin } from '@framedeck/kafka';
import type { PartitionLag } from '@framedeck/metrics';

/** A scrape must not hang on an unreachable broker: Prometheus times out at 10 s by default. */
const LAG_READ_TIMEOUT_MS = 5_000;

/**
 * The consumer group's lag on `topic`, per partition: high watermark minus committed offset
 * (from the partition's low watermark when the group has committed nothing there yet). Read
 * from the brokers, so it is the group's lag whichever member owns the partition.
 */
export async function readConsumerLag(admin: Admin, groupId: string, topic: string): Promise<PartitionLag[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out reading consumer lag')), LAG_READ_TIMEOUT_MS);
  });
  try {
    await Promise.race([admin.connect(), timeout]);
    const [ends, committed] = await Promise.race([
      Promise.all([admin.fetchTopicOffsets(topic), admin.fetchOffsets({ groupId, topics: [topic] })]),
      timeout,
    ]);
    const committedByPartition = new Map(
      (committed.find((t) => t.topic === topic)?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]),
    );
    return ends.map((end) => {
      const done = committedByPartition.get(end.partition) ?? -1;
      const from = done >= 0 ? done : Number(end.low);
      return { topic, partition: end.partition, lag: Math.max(0, Number(end.high) - from) };
    });
  } finally {
    clearTimeout(timer);
  }
}
