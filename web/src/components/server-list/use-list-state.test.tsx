import { useEffect } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { readListParams, useListState, withChanges, type ListState } from './use-list-state';

const FILTERS = ['client', 'type'] as const;
const probe = {} as { state: ListState<'client' | 'type'> };

function Probe() {
  const state = useListState(FILTERS);
  useEffect(() => {
    probe.state = state;
  });
  const location = useLocation();
  return (
    <>
      <span data-testid="url">{location.search}</span>
      <span data-testid="input">{state.searchInput}</span>
    </>
  );
}

function renderAt(entry: string) {
  const router = createMemoryRouter(
    [
      { path: '/list', element: <Probe /> },
      { path: '/other', element: <span>other</span> },
    ],
    { initialEntries: [entry] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const url = () => screen.getByTestId('url').textContent ?? '';

describe('useListState', () => {
  it('reads page, size, ordering, search and filters from the URL', () => {
    renderAt('/list?page=3&page_size=50&ordering=-name&search=%20acme%20&client=c1&tab=roles');
    expect(probe.state.params).toEqual({ page: 3, page_size: 50, ordering: '-name', search: 'acme' });
    expect(probe.state.filters).toEqual({ client: 'c1', type: '' });
    expect(probe.state.exportParams).toEqual({ ordering: '-name', search: 'acme', client: 'c1', type: '' });
    expect(screen.getByTestId('input').textContent).toBe('acme');
  });

  it('falls back to the defaults for missing or invalid values', () => {
    expect(readListParams(new URLSearchParams('page=-2&page_size=33'))).toEqual({ page: 1, page_size: 25, ordering: '', search: '' });
    expect(readListParams(new URLSearchParams('page=abc&page_size=10'))).toEqual({ page: 1, page_size: 10, ordering: '', search: '' });
  });

  it('writes changes back, leaving defaults and other parameters alone', () => {
    expect(withChanges(new URLSearchParams('tab=roles&page=2'), { page: 1, page_size: 25, client: 'c1' }).toString()).toBe('tab=roles&client=c1');
  });

  it('goes back to page 1 when a filter or the ordering changes, keeping the tab', () => {
    renderAt('/list?tab=roles&page=4&client=c1');
    act(() => probe.state.setFilter('type', 'Station'));
    expect(url()).toBe('?tab=roles&client=c1&type=Station');
    expect(probe.state.params.page).toBe(1);
    act(() => probe.state.setPage(2, 50));
    expect(url()).toBe('?tab=roles&client=c1&type=Station&page=2&page_size=50');
    act(() => probe.state.setOrdering('-created_at'));
    expect(probe.state.params).toMatchObject({ page: 1, page_size: 50, ordering: '-created_at' });
    act(() => probe.state.setFilter('client', ''));
    expect(url()).toBe('?tab=roles&type=Station&page_size=50&ordering=-created_at');
  });

  it('shows the search at once and puts it in the URL after a pause, on page 1', async () => {
    renderAt('/list?page=3');
    act(() => probe.state.setSearch('  water '));
    expect(screen.getByTestId('input').textContent).toBe('  water ');
    expect(probe.state.params.search).toBe('');
    await waitFor(() => expect(url()).toBe('?search=water'));
    expect(probe.state.params).toMatchObject({ page: 1, search: 'water' });
  });

  it('restores the list after leaving and coming Back', async () => {
    const router = renderAt('/list');
    act(() => probe.state.setFilter('client', 'c2'));
    act(() => probe.state.setSearch('beans'));
    await waitFor(() => expect(url()).toBe('?client=c2&search=beans'));
    await act(() => router.navigate('/other'));
    await screen.findByText('other');
    await act(() => router.navigate(-1));
    await waitFor(() => expect(url()).toBe('?client=c2&search=beans'));
    expect(probe.state.filters.client).toBe('c2');
    expect(screen.getByTestId('input').textContent).toBe('beans');
  });

  it('follows the URL when it changes from outside', async () => {
    const router = renderAt('/list?search=old');
    await act(() => router.navigate('/list?search=new'));
    expect(screen.getByTestId('input').textContent).toBe('new');
    expect(probe.state.params.search).toBe('new');
  });
});
