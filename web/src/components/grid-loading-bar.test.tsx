import { render, screen } from '@testing-library/react';
import type { GridColDef } from '@mui/x-data-grid';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../locales/i18n';
import { SummaryTable } from './reports/summary-table';

interface Row {
  id: string;
  name: string;
}
const columns: GridColDef<Row>[] = [{ field: 'name', headerName: 'Name' }];
const rows: Row[] = [{ id: 'a', name: 'Alpha' }];

function Table({ loading, data = rows }: { loading: boolean; data?: Row[] }) {
  return <SummaryTable title="Things" rows={data} columns={columns} loading={loading} noRowsLabel="None" testId="things" />;
}

describe('a data grid loading its rows (issue 33)', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows a bar named in the UI language, outside role="grid", while the box is busy', async () => {
    const { rerender } = render(<Table loading />);
    const bar = await screen.findByRole('progressbar', { name: 'Loading the rows…' });
    expect(bar.closest('[role="grid"]')).toBeNull();
    expect(bar.closest('.MuiDataGrid-root')).not.toBeNull();
    expect(screen.getByTestId('things').getAttribute('aria-busy')).toBe('true');

    await i18n.changeLanguage('fr');
    expect(await screen.findByRole('progressbar', { name: 'Chargement des lignes…' })).toBeTruthy();

    rerender(<Table loading={false} />);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByTestId('things').getAttribute('aria-busy')).toBe('false');
  });

  it('without rows yet: the skeleton, hidden from screen readers, and no bar', () => {
    render(<Table loading data={[]} />);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(document.querySelector('.MuiDataGrid-overlay')?.getAttribute('aria-hidden')).toBe('true');
  });
});
