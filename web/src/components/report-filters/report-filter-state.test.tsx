import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { withChanges } from '../server-list/use-list-state';
import {
  DEFAULT_REPORT_FILTERS,
  readReportFilters,
  reportChanges,
  reportQuery,
  spanProblem,
  splitList,
  useReportFilters,
  type ReportControl,
  type ReportFilterState,
} from './report-filter-state';

const read = (search: string) => readReportFilters(new URLSearchParams(search));

describe('report filters in the URL', () => {
  it('take their defaults when the query string says nothing or nonsense', () => {
    expect(read('')).toEqual(DEFAULT_REPORT_FILTERS);
    expect(read('period=next_week&value=profit&group_by=planet&grouping_period=hour')).toEqual(DEFAULT_REPORT_FILTERS);
  });

  it('read every filter, lists comma-separated without blanks or repeats', () => {
    const filters = read('period=previous_year&value=quantity&group_by=product_tag&grouping_period=month&clients=c1,,c2,c1&regions=Emilia-Romagna&products=p1');
    expect(filters).toMatchObject({
      period: 'previous_year',
      value: 'quantity',
      group_by: 'product_tag',
      grouping_period: 'month',
      clients: ['c1', 'c2'],
      regions: ['Emilia-Romagna'],
      products: ['p1'],
      machines: [],
    });
    expect(splitList(' a , b,,a ')).toEqual(['a', 'b']);
  });

  it('keep dates only with a custom period, and only real ones', () => {
    expect(read('period=current_month&date_from=2026-01-01&date_to=2026-01-31')).toMatchObject({ date_from: '', date_to: '' });
    expect(read('period=custom&date_from=2026-01-01&date_to=2026-01-31')).toMatchObject({ date_from: '2026-01-01', date_to: '2026-01-31' });
    expect(read('period=custom&date_from=2026-13-45&date_to=yesterday')).toMatchObject({ date_from: '', date_to: '' });
  });

  it('say when a custom span cannot be asked for', () => {
    expect(spanProblem(read('period=custom'))).toBe('missingDates');
    expect(spanProblem(read('period=custom&date_from=2026-02-01&date_to=2026-01-01'))).toBe('datesReversed');
    expect(spanProblem(read('period=custom&date_from=2026-01-01&date_to=2026-01-01'))).toBeNull();
    expect(spanProblem(read(''))).toBeNull();
  });

  it('become the API parameters', () => {
    expect(reportQuery(read('machines=m1,m2&regions=A'))).toEqual({
      period: 'current_month',
      date_from: undefined,
      date_to: undefined,
      value: 'sales',
      group_by: 'machine',
      grouping_period: 'day',
      clients: undefined,
      locations: undefined,
      regions: 'A',
      machine_tags: undefined,
      machines: 'm1,m2',
      products: undefined,
      product_tags: undefined,
    });
    expect(reportQuery(read('period=custom&date_from=2026-01-01&date_to=2026-01-31'))).toMatchObject({ date_from: '2026-01-01', date_to: '2026-01-31' });
  });

  it('carry only the parameters of the screen’s controls', () => {
    const filters = read('period=custom&date_from=2026-01-01&date_to=2026-01-31&value=quantity&machines=m1&employees=e1&products=p1');
    expect(reportQuery(filters, ['period', 'machines', 'employees'])).toEqual({ period: 'custom', date_from: '2026-01-01', date_to: '2026-01-31', machines: 'm1', employees: 'e1' });
    expect(reportQuery(filters, ['machines', 'products'])).toEqual({ machines: 'm1', products: 'p1' });
    // The sales overview's default leaves the employees out.
    expect(reportQuery(filters)).not.toHaveProperty('employees');
  });

  it('write short URLs: defaults and empty lists leave, the table goes back to page 1, dates leave with custom', () => {
    const current = new URLSearchParams('period=custom&date_from=2026-01-01&date_to=2026-01-31&page=3&search=cola&clients=c1');
    const next = withChanges(current, reportChanges({ period: 'current_month', group_by: 'product', clients: [], machines: ['m1', 'm2'] }));
    expect(Object.fromEntries(next)).toEqual({ search: 'cola', group_by: 'product', machines: 'm1,m2' });
    expect(reportChanges({ value: undefined })).toEqual({ page: null });
  });
});

function Probe({ onState, controls }: { onState: (state: ReportFilterState) => void; controls?: readonly ReportControl[] }) {
  const state = useReportFilters(controls);
  const location = useLocation();
  onState(state);
  return <output data-testid="search">{location.search}</output>;
}

describe('useReportFilters', () => {
  it('pushes each change to the history, so Back undoes it and the state follows the URL', async () => {
    let state: ReportFilterState | undefined;
    const router = createMemoryRouter([{ path: '/report', element: <Probe onState={(next) => (state = next)} /> }], {
      initialEntries: ['/report?grouping_period=week&page=2'],
    });
    render(<RouterProvider router={router} />);
    expect(state?.filters.grouping_period).toBe('week');
    expect(state?.changed).toBe(true);

    act(() => state?.setFilters({ group_by: 'product' }));
    expect(screen.getByTestId('search').textContent).toBe('?grouping_period=week&group_by=product');
    expect(state?.filters.group_by).toBe('product');
    expect(state?.query.group_by).toBe('product');

    await act(() => router.navigate(-1));
    expect(screen.getByTestId('search').textContent).toBe('?grouping_period=week&page=2');
    expect(state?.filters.group_by).toBe('machine');

    act(() => state?.reset());
    expect(screen.getByTestId('search').textContent).toBe('');
    expect(state?.changed).toBe(false);
  });

  it('judges only the screen’s controls: changes, and the custom span’s dates', () => {
    let state: ReportFilterState | undefined;
    const controls: readonly ReportControl[] = ['machines'];
    const router = createMemoryRouter([{ path: '/report', element: <Probe controls={controls} onState={(next) => (state = next)} /> }], {
      initialEntries: ['/report?value=quantity&period=custom'],
    });
    render(<RouterProvider router={router} />);
    expect(state?.changed).toBe(false);
    expect(state?.problem).toBeNull();
    expect(state?.query).toEqual({ machines: undefined });
    act(() => state?.setFilters({ machines: ['m1'] }));
    expect(state?.changed).toBe(true);
    expect(state?.query).toEqual({ machines: 'm1' });
  });
});
