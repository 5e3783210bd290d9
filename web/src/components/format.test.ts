import { describe, expect, it } from 'vitest';
import { formatClock, formatDate, formatDateRange, formatDuration, formatKm, formatRelativeTime, formatShare } from './format';

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

describe('route figures', () => {
  const plain = (text: string) => text.replace(/\s/g, ' ');

  it('show distances in kilometres and durations in hours and minutes, in the user’s language', () => {
    expect(formatKm(12_345, 'en')).toBe('12.3 km');
    expect(plain(formatKm(12_345, 'fr'))).toBe('12,3 km');
    expect(formatKm(null, 'en')).toBe('');
    expect(formatDuration(2 * 3600 + 5 * 60 + 20, 'en')).toBe('2 hr 5 min');
    expect(plain(formatDuration(7200, 'it'))).toBe('2 h');
    expect(formatDuration(540, 'en')).toBe('9 min');
  });

  it('show a wall-clock time as it is meant, and an instant in the browser’s zone', () => {
    expect(plain(formatClock('07:30', 'en'))).toBe('7:30 AM');
    expect(formatClock('07:30:00', 'fr')).toBe('07:30');
    expect(formatClock('', 'en')).toBe('');
    expect(formatClock('2026-11-24T10:00:00Z', 'en')).not.toBe('');
    expect(plain(formatShare(0.875, 'fr'))).toBe('87,5 %');
  });
});

describe('formatDateRange', () => {
  it('names the compared span compactly in each language', () => {
    expect(formatDateRange('2026-10-01', '2026-10-27', 'en')).toMatch(/^Oct 1\s?–\s?27, 2026$/);
    expect(formatDateRange('2026-10-01', '2026-10-27', 'fr')).toMatch(/^1\s?–\s?27 oct\. 2026$/);
    expect(formatDateRange('2026-10-01', '2026-10-27', 'it')).toMatch(/^0?1\s?–\s?27 ott 2026$/);
  });

  it('spans months and years, and shows one day once', () => {
    expect(formatDateRange('2026-09-28', '2026-10-04', 'fr')).toMatch(/^28 sept\.\s?–\s?4 oct\. 2026$/);
    expect(formatDateRange('2025-12-29', '2026-01-04', 'en')).toContain('2025');
    expect(formatDateRange('2026-11-20', '2026-11-20', 'en')).toBe('Nov 20, 2026');
    expect(formatDateRange('bad', 'bad', 'en')).toBe('bad');
  });
});

describe('formatRelativeTime', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

  it('says how long ago an instant was, in its largest whole unit and the user’s language', () => {
    expect(formatRelativeTime(ago(20), 'en', now)).toBe('now');
    expect(formatRelativeTime(ago(-20), 'en', now)).toBe('now');
    expect(formatRelativeTime(ago(90), 'en', now)).toBe('1 minute ago');
    expect(formatRelativeTime(ago(5 * 60), 'en', now)).toBe('5 minutes ago');
    expect(formatRelativeTime(ago(3 * 3600 + 59 * 60), 'en', now)).toBe('3 hours ago');
    expect(formatRelativeTime(ago(26 * 3600), 'en', now)).toBe('yesterday');
    expect(formatRelativeTime(ago(40 * 86_400), 'en', now)).toBe('last month');
    expect(formatRelativeTime(ago(5 * 60), 'fr', now)).toBe('il y a 5 minutes');
    expect(formatRelativeTime(ago(2 * 3600), 'it', now)).toBe('2 ore fa');
    expect(formatRelativeTime(null, 'en', now)).toBe('');
    expect(formatRelativeTime('nonsense', 'en', now)).toBe('');
  });
});
