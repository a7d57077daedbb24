import { describe, expect, it } from 'vitest';
import { decideNotification } from './notification-decision.js';

const now = new Date('2026-03-01T12:00:00Z');
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);

describe('decideNotification', () => {
  it('notifies the first trigger, not a first "resolved"', () => {
    expect(decideNotification('triggered', { notifiedStatus: null, notifiedAt: null }, 60, now)).toEqual({
      notify: true,
      kind: 'triggered',
    });
    expect(decideNotification('resolved', { notifiedStatus: null, notifiedAt: null }, 60, now)).toEqual({
      notify: false,
      reason: 'unchanged',
    });
  });

  it('notifies resolving only after a trigger was sent, and never repeats a state', () => {
    const sent = { notifiedStatus: 'triggered' as const, notifiedAt: minutesAgo(120) };
    expect(decideNotification('resolved', sent, 60, now)).toEqual({ notify: true, kind: 'resolved' });
    expect(decideNotification('triggered', sent, 60, now)).toEqual({ notify: false, reason: 'unchanged' });
  });

  it('holds a transition back inside the cooldown and sends it once the cooldown is over', () => {
    const justSent = { notifiedStatus: 'triggered' as const, notifiedAt: minutesAgo(59) };
    expect(decideNotification('resolved', justSent, 60, now)).toEqual({ notify: false, reason: 'cooldown' });
    const cooledDown = { notifiedStatus: 'triggered' as const, notifiedAt: minutesAgo(60) };
    expect(decideNotification('resolved', cooledDown, 60, now)).toEqual({ notify: true, kind: 'resolved' });
  });

  it('a cooldown of 0 lets every transition through', () => {
    const sent = { notifiedStatus: 'resolved' as const, notifiedAt: now };
    expect(decideNotification('triggered', sent, 0, now)).toEqual({ notify: true, kind: 'triggered' });
  });
});
