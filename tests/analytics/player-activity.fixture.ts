import { randomUUID } from 'node:crypto';
import { daysBefore, type FixtureEvent } from './event-fixtures.js';

/**
 * A small game's week, shared by the insights, dashboard and retention tests.
 * NOW is Wednesday 2026-03-18 12:00 UTC; daysBefore(n, h) is n days before, h hours later.
 *
 *   2026-03-08  p6 start (m1)                        ← 10 days ago: only in windows of 14+ days
 *   2026-03-15  p1 start, p2 start, p5 start (m2)    ← Sunday: week of 2026-03-09
 *   2026-03-16  p1 start, p3 start                   ← Monday
 *   2026-03-17  p1 kill, p2 kill, p3 start
 *   2026-03-18  p1 start ×2, p2 start, p3 kill, anonymous start
 * plus p4, first seen 2026-03-01 (17 days ago) and back on 2026-03-16 (a veteran, not a new player).
 */
export function playerActivity(projectId = randomUUID()): { projectId: string; events: FixtureEvent[] } {
  const e = (playerId: string, eventName: string, at: Date, mapId = 'm1'): FixtureEvent => ({
    projectId,
    playerId,
    eventName,
    at,
    mapId,
    sessionId: playerId ? `${playerId}-${at.toISOString().slice(0, 10)}` : 'anon-session',
    platform: playerId === 'p5' ? 'ps5' : 'pc',
  });
  const events = [
    e('p6', 'start', daysBefore(10)),
    e('p1', 'start', daysBefore(3, 1)),
    e('p2', 'start', daysBefore(3, 2)),
    e('p5', 'start', daysBefore(3, 3), 'm2'),
    e('p1', 'start', daysBefore(2)),
    e('p3', 'start', daysBefore(2, 1)),
    e('p1', 'kill', daysBefore(1)),
    e('p2', 'kill', daysBefore(1, 1)),
    e('p3', 'start', daysBefore(1, 2)),
    e('p1', 'start', daysBefore(0, -3)),
    e('p1', 'start', daysBefore(0, -2)),
    e('p2', 'start', daysBefore(0, -1)),
    e('p3', 'kill', daysBefore(0, -1)),
    e('', 'start', daysBefore(0, -1)),
    e('p4', 'start', daysBefore(17)),
    e('p4', 'start', daysBefore(2, 3)),
  ];
  return { projectId, events };
}
