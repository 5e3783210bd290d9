import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import type { PicklistLine } from '../../api/types';
import { valuesFromBody } from './components/visit-panel';
import { fetchOrKept, localDay, upcomingDays } from './my-day-data';

describe('fetchOrKept', () => {
  it('keeps each fresh reply and reads the copy when the server cannot be reached', async () => {
    const fresh = await fetchOrKept('test:route', async () => ({ name: 'North' }), () => 1_000);
    expect(fresh).toEqual({ value: { name: 'North' }, savedAt: 1_000, offline: false });
    const copy = await fetchOrKept('test:route', async () => {
      throw new ApiError(0, 'Failed to fetch');
    });
    expect(copy).toEqual({ value: { name: 'North' }, savedAt: 1_000, offline: true });
    const fault = await fetchOrKept('test:route', async () => {
      throw new ApiError(503, 'Down');
    });
    expect(fault.offline).toBe(true);
  });

  it('a refusal is the server’s word, and without a copy the failure stands', async () => {
    await fetchOrKept('test:refused', async () => 1);
    await expect(
      fetchOrKept('test:refused', async () => {
        throw new ApiError(404, 'Not found');
      }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      fetchOrKept('test:never', async () => {
        throw new ApiError(0, 'Failed to fetch');
      }),
    ).rejects.toMatchObject({ status: 0 });
  });
});

describe('the days of my routes', () => {
  it('today and the next six, as local dates', () => {
    expect(localDay(new Date(2026, 10, 26, 23, 30))).toBe('2026-11-26');
    expect(upcomingDays(new Date(2026, 10, 28, 9))).toEqual({ from: '2026-11-28', to: '2026-12-04' });
  });
});

describe('valuesFromBody', () => {
  const line = (selection: string, max: number, predicted: number) =>
    ({ selection, product_id: `p${selection}`, product_name: `P${selection}`, current: 0, max, velocity: 1, predicted_at_visit: predicted, need: 0, to_bring: 0, components: [] }) as PicklistLine;

  it('a refused booking opens with what was sent, the other lines as the picklist starts them', () => {
    const values = valuesFromBody(
      [line('1', 10, 4), line('2', 8, 3)],
      { lines: [{ selection: '1', found: 5, filled: 5, removed: 2, removed_reason: 'damaged' }], cash_bag: 'B-7', collected_minor: 1250, note: 'Door stuck' },
      2,
    );
    expect(values.lines[0]).toMatchObject({ found: '5', filled: '5', removed: '2', removed_reason: 'damaged' });
    expect(values.lines[1]).toMatchObject({ found: '3', filled: '5', removed: '0', removed_reason: '' });
    expect(values).toMatchObject({ cash_bag: 'B-7', collected: '12.50', note: 'Door stuck' });
  });
});
