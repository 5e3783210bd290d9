import { describe, expect, it } from 'vitest';
import { comparedSpan } from './dashboard-logic';

describe('comparedSpan', () => {
  it('compares today with the same weekday last week', () => {
    expect(comparedSpan('today', { date_from: '2026-11-27', date_to: '2026-11-27' })).toEqual({ from: '2026-11-20', to: '2026-11-20' });
    expect(comparedSpan('today', { date_from: '2026-03-03', date_to: '2026-03-03' })).toEqual({ from: '2026-02-24', to: '2026-02-24' });
  });

  it('compares the month to date with the same days of the month before, kept within it', () => {
    expect(comparedSpan('month', { date_from: '2026-11-01', date_to: '2026-11-27' })).toEqual({ from: '2026-10-01', to: '2026-10-27' });
    expect(comparedSpan('month', { date_from: '2026-03-01', date_to: '2026-03-31' })).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(comparedSpan('month', { date_from: '2026-01-01', date_to: '2026-01-15' })).toEqual({ from: '2025-12-01', to: '2025-12-15' });
  });

  it('takes the dates the server gives', () => {
    expect(comparedSpan('month', { date_from: '2026-11-01', date_to: '2026-11-27', previous_from: '2026-10-01', previous_to: '2026-10-31' })).toEqual({
      from: '2026-10-01',
      to: '2026-10-31',
    });
  });
});
