import { engineFromVersion } from '@framedeck/clickhouse';
import { describe, expect, it } from 'vitest';
import { entitySlices, FUNNEL_UNDECIDED_LIMIT, queryFunnel } from './funnels.query.js';
import { answeredOnceTwoSent, legacy, sentSql } from './sent-sql.testing.js';

const HALF = '9223372036854775808'; // 2^63
const q = {
  projectId: '00000000-0000-4000-8000-000000000001',
  steps: ['a', 'b'],
  windowSeconds: 3600,
  by: 'player' as const,
  days: 30,
};
const boundsOf = (sent: string[]) => sent.filter((text) => text.includes('FROM funnel_step_hours'));
const exactOf = (sent: string[]) => sent.filter((text) => text.includes('FROM funnel_steps'));

describe('funnels counted in slices of the entities (ServerEngine.funnelSlices)', () => {
  it('the slices adjoin and cover every 64-bit hash once', () => {
    for (const count of [1, 2, 3, 8]) {
      const slices = entitySlices(count);
      expect(slices).toHaveLength(count);
      expect(slices[0]!.from).toBe(0n);
      // Each slice ends where the next begins; the last one is open, up to 2^64 − 1.
      slices.slice(1).forEach((slice, i) => expect(slices[i]!.below).toBe(slice.from));
      expect(slices.at(-1)!.below).toBeUndefined();
      expect(slices.at(-1)!.from).toBeLessThan(2n ** 64n);
    }
  });

  it('18.16: both halves of the player hashes are bounded at once', async () => {
    // No answer until both bounds queries are sent: sent one after the other, the first would wait.
    const held = answeredOnceTwoSent('the second half was not sent while the first ran');
    const sent = await sentSql((reader) => queryFunnel(reader, q), held);
    expect(legacy.funnelSlices.count).toBe(2);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toContain(`AND player_hash < ${HALF}`);
    expect(sent[0]).not.toContain('player_hash >=');
    expect(sent[1]).toContain(`AND player_hash >= ${HALF}`);
    expect(sent[1]).not.toContain('player_hash <');
  });

  it("18.16: a half's open players are counted by their keys, a half with too many whole, within the half", async () => {
    const open = (keys: string[]) => [{ level: -1, entities: keys.length, undecided: keys }];
    // The first half leaves two players open, the second three: over a limit of two.
    const answer = (n: number) => (n === 1 ? open(['11', '12']) : n === 2 ? open(['13', '14', '15']) : []);
    const sent = await sentSql((reader) => queryFunnel(reader, q, 'rollups', 2), answer);
    expect(boundsOf(sent)).toHaveLength(2);
    const exact = exactOf(sent);
    expect(exact).toHaveLength(2);
    const listed = exact.find((text) => text.includes('player_hash IN ('));
    expect(listed).toContain('player_hash IN (11, 12)');
    const whole = exact.find((text) => !text.includes('player_hash IN ('));
    expect(whole).toContain(`AND player_hash >= ${HALF}`);
  });

  it('18.16: a funnel the bounds cannot serve is counted exactly, half by half', async () => {
    const sent = await sentSql((reader) => queryFunnel(reader, { ...q, windowSeconds: 60 }));
    expect(boundsOf(sent)).toHaveLength(0);
    expect(exactOf(sent).map((text) => text.match(/player_hash (<|>=) \d+/)?.[0])).toEqual([
      `player_hash < ${HALF}`,
      `player_hash >= ${HALF}`,
    ]);
  });

  it("18.16: every query of a half runs on the half's share of the server's threads", async () => {
    const twoCores = engineFromVersion('18.16.1', 2);
    const open = [{ level: -1, entities: 1, undecided: ['11'] }];
    const bounded = await sentSql(
      (reader) => queryFunnel(reader, q),
      (n) => (n === 1 ? open : []),
      twoCores,
    );
    const whole = await sentSql((reader) => queryFunnel(reader, { ...q, windowSeconds: 60 }), undefined, twoCores);
    // Both bounds, the first half's listed count, and the two whole halves.
    expect([boundsOf(bounded).length, exactOf(bounded).length, exactOf(whole).length]).toEqual([2, 1, 2]);
    for (const text of [...bounded, ...whole]) expect(text).toMatch(/, max_threads = 1\s*$/);
    // A server whose thread count is unknown keeps its default.
    for (const text of await sentSql((reader) => queryFunnel(reader, q))) expect(text).not.toContain('max_threads');
  });

  it('18.16: sessions are bounded in one query on every thread, their upper bound from the steps present', async () => {
    // Halves of the session hashes would each read every row: funnel_step_hours is sorted by the
    // player hash. One session left open is counted by its key in the same single query's way.
    const open = [{ level: -1, entities: 1, undecided: ['11'] }];
    const sent = await sentSql(
      (reader) => queryFunnel(reader, { ...q, by: 'session' }),
      (n) => (n === 1 ? open : []),
      engineFromVersion('18.16.1', 2),
    );
    expect(boundsOf(sent)).toHaveLength(1);
    expect(exactOf(sent)).toHaveLength(1);
    expect(exactOf(sent)[0]).toContain('PREWHERE session_hash IN (11)');
    for (const text of sent) {
      expect(text).not.toMatch(/session_hash (<|>=) \d/);
      expect(text).not.toContain('max_threads');
    }
    // The lower bound's windowFunnel alone, over every row read: of the last step only its last
    // events. The upper bound counts the leading steps present.
    const [sessionBounds] = boundsOf(sent);
    expect(sessionBounds!.match(/windowFunnel(If)?\(/g)).toEqual(['windowFunnel(']);
    expect(sessionBounds).toContain("(event_name_hash != cityHash64('b') OR edge = 1)");
    expect(sessionBounds).toContain('groupBitOr(');
    // Sessions leave out a middle step's last events (a two-step funnel has none); players do not.
    const threeSteps = { ...q, steps: ['a', 'b', 'c'] };
    const [sessionsOfThree] = boundsOf(
      await sentSql((reader) => queryFunnel(reader, { ...threeSteps, by: 'session' })),
    );
    expect(sessionsOfThree).toContain("(event_name_hash IN (cityHash64('a'), cityHash64('c')) OR edge != 1)");
    expect(sessionBounds).not.toContain('OR edge != 1');
    for (const text of boundsOf(await sentSql((reader) => queryFunnel(reader, threeSteps))))
      expect(text).not.toContain('OR edge != 1');
    // Players keep the hour marks' windowFunnel as their upper bound, over the first events.
    const byPlayer = boundsOf(await sentSql((reader) => queryFunnel(reader, q)));
    for (const text of byPlayer) {
      expect(text.match(/windowFunnel(If)?\(/g)).toEqual(['windowFunnelIf(', 'windowFunnelIf(']);
      expect(text).toContain("(event_name_hash != cityHash64('b') OR edge IN (0, 1))");
    }
  });

  it("the longest list of open keys fits in the server's max_query_size (256 KiB)", async () => {
    const keys = Array.from({ length: FUNNEL_UNDECIDED_LIMIT }, (_, i) => String(2n ** 64n - 1n - BigInt(i)));
    const open = [{ level: -1, entities: keys.length, undecided: keys }];
    const sent = await sentSql(
      (reader) =>
        queryFunnel(reader, { ...q, by: 'session', steps: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'] }),
      (n) => (n === 1 ? open : []),
    );
    const listed = exactOf(sent);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toContain(`${2n ** 64n - 1n}, `);
    expect(Buffer.byteLength(listed[0]!)).toBeLessThan(256 * 1024);
    // One more and the whole funnel is counted instead (no list).
    const over = [{ level: -1, entities: keys.length + 1, undecided: [...keys, '1'] }];
    const whole = exactOf(
      await sentSql(
        (reader) => queryFunnel(reader, { ...q, by: 'session' }),
        (n) => (n === 1 ? over : []),
      ),
    );
    expect(whole).toHaveLength(1);
    expect(whole[0]).not.toContain('PREWHERE');
  });

  it('26.x: one bounds query over every player', async () => {
    const sent = await sentSql((reader) => queryFunnel(reader, q), undefined, engineFromVersion('26.7.2.1', 2));
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toContain('max_threads');
    expect(sent[0]).toMatch(/FROM funnel_step_hours/);
    expect(sent[0]).not.toMatch(/player_hash (<|>=)/);
  });
});
