import { describe, expect, it } from 'vitest';
import { formatDate } from './format';

describe('formatDate', () => {
  it('shows a calendar date as that day in every zone', () => {
    // The same wording a browser in UTC gives for 31 January 2027.
    const expected = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2027, 0, 31)),
    );
    expect(formatDate('2027-01-31', 'en')).toBe(expected);
    expect(formatDate('2027-01-31', 'en', 'America/Los_Angeles')).toBe(expected);
  });

  it('shows an instant on its local day in the zone asked for', () => {
    // 23:30 UTC is already the next day in Paris, still the same day in Los Angeles.
    expect(formatDate('2026-11-30T23:30:00Z', 'en', 'Europe/Paris')).toContain('Dec');
    expect(formatDate('2026-11-30T23:30:00Z', 'en', 'America/Los_Angeles')).toContain('Nov');
    expect(formatDate('', 'en')).toBe('');
    expect(formatDate('nonsense', 'en')).toBe('');
  });
});
