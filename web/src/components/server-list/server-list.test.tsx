import type { ReactNode } from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { GridColDef } from '@mui/x-data-grid';
import EditIcon from '@mui/icons-material/EditOutlined';
import { describe, expect, it, vi } from 'vitest';
import '../../locales/i18n';
import { ServerList, sortModelOf, type ListQuery, type ServerListProps } from './server-list';
import { useListState } from './use-list-state';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('../snackbar', () => ({ toast: toasts }));

interface Row {
  id: string;
  name: string;
  can_manage: boolean;
}

const columns: GridColDef<Row>[] = [{ field: 'name', headerName: 'Name', minWidth: 120 }];
const rows: Row[] = [
  { id: 'a', name: 'Alpha', can_manage: true },
  { id: 'b', name: 'Beta', can_manage: false },
];
const loaded = (data: Row[]): ListQuery<Row> => ({ data: { data, pagination: { count: data.length, page: 1, page_size: 25 } }, isFetching: false, isError: false, refetch: vi.fn() });

type Extra = Partial<Omit<ServerListProps<Row, never>, 'list' | 'query'>>;

function List({ query, extra }: { query: ListQuery<Row>; extra: Extra }) {
  const list = useListState();
  return <ServerList name="things" list={list} query={query} columns={columns} noRowsLabel="No things yet" rowLabel={(row) => row.name} {...extra} />;
}

function renderList(query: ListQuery<Row>, extra: Extra = {}): void {
  const element: ReactNode = <List query={query} extra={extra} />;
  const router = createMemoryRouter([{ path: '/', element }]);
  render(<RouterProvider router={router} />);
}

describe('ServerList', () => {
  it('shows progress while loading', async () => {
    renderList({ isFetching: true, isError: false, refetch: vi.fn() });
    const grid = await screen.findByTestId('things-grid');
    expect(grid.getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByText('No things yet')).toBeNull();
  });

  it('says so when there are no rows', async () => {
    renderList(loaded([]));
    await screen.findByText('No things yet');
    expect(screen.getByTestId('things-search')).toBeTruthy();
  });

  it('shows a failed list with a retry button', async () => {
    const query: ListQuery<Row> = { isFetching: false, isError: true, refetch: vi.fn() };
    renderList(query);
    const alert = await screen.findByTestId('things-error');
    expect(alert.textContent).toContain('The list could not be loaded.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(query.refetch).toHaveBeenCalledOnce();
  });

  it('shows row actions only where the predicate allows, and deletes after confirmation', async () => {
    const onEdit = vi.fn();
    const remove = vi.fn(async () => ({ message: 'Thing deleted' }));
    renderList(loaded(rows), {
      actions: [{ label: 'Edit', icon: <EditIcon />, onClick: onEdit, show: (row) => row.can_manage }],
      deletion: {
        show: (row) => row.can_manage,
        title: 'Delete thing',
        confirmText: ([row]) => `Delete ${row?.name}?`,
        remove,
        pending: false,
        successText: () => 'Deleted',
      },
    });
    await screen.findByText('Beta');
    expect(screen.queryByRole('button', { name: 'Edit: Beta' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete: Beta' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Edit: Alpha' }));
    expect(onEdit).toHaveBeenCalledWith(rows[0]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete: Alpha' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Delete Alpha?');
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-submit'));
    await waitFor(() => expect(toasts.success).toHaveBeenCalledWith('Deleted'));
    expect(remove).toHaveBeenCalledWith([rows[0]]);
  });

  it('offers bulk delete only for the rows the predicate allows', async () => {
    renderList(loaded(rows), {
      deletion: { show: (row) => row.can_manage, bulk: true, title: 'Delete', confirmText: (chosen) => `${chosen.length}`, remove: vi.fn(), pending: false, successText: () => '' },
    });
    await screen.findByText('Beta');
    const boxes = screen.getAllByRole('checkbox') as HTMLInputElement[];
    // Header "select all", Alpha, Beta (not selectable).
    expect(boxes.map((box) => box.disabled)).toEqual([false, false, true]);
    fireEvent.click(boxes[1]);
    expect(await screen.findByRole('button', { name: 'Delete (1 selected)' })).toBeTruthy();
  });

  it('has no Actions column and no checkboxes without actions', async () => {
    renderList(loaded(rows));
    await screen.findByText('Alpha');
    expect(screen.queryByText('Actions')).toBeNull();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
  });

  it('maps the ordering to the grid column', () => {
    expect(sortModelOf('-location_type', { type: 'location_type' })).toEqual([{ field: 'type', sort: 'desc' }]);
    expect(sortModelOf('name', { name: 'name' })).toEqual([{ field: 'name', sort: 'asc' }]);
    expect(sortModelOf('unknown', { name: 'name' })).toEqual([]);
  });
});
