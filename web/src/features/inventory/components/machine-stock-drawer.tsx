import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Option, SelectionStock } from '../../../api/types';
import { reportColumns } from '../../../components/reports/report-columns';
import { ReportDrawer } from '../../../components/reports/report-drawer';
import { ReportFailure } from '../../../components/reports/report-notices';
import { SummaryTable } from '../../../components/reports/summary-table';
import { useMachineOptions } from '../../../api/filter-options';
import { useMachineStock } from '../api/inventory';
import { ExpiryCell, FillCell, SelectionState } from './stock-cells';

interface MachineStockDrawerProps {
  open: boolean;
  onClose: () => void;
  /** The machine shown first (the filters' one machine, if they name one). */
  initialMachine: string | null;
}

/** One machine's selections, expiring soonest first: what to take off or refill there. */
export function MachineStockDrawer({ open, onClose, initialMachine }: MachineStockDrawerProps) {
  const { t, i18n } = useTranslation();
  const [machine, setMachine] = useState<string | null>(initialMachine);
  const machines = useMachineOptions(open);
  const stock = useMachineStock(open ? machine : null);
  const options = machines.data ?? [];
  const chosen: Option | null = options.find((option) => option.id === machine) ?? null;
  const col = reportColumns<SelectionStock>(i18n.language);
  const columns: GridColDef<SelectionStock>[] = [
    col.text('selection', t('inventory.selection'), { minWidth: 80, flex: 0.5 }),
    col.text('product_name', t('inventory.product'), { minWidth: 160, flex: 2 }),
    col.count('current', t('inventory.current')),
    col.count('max', t('inventory.max')),
    { field: 'fill', headerName: t('inventory.fill'), minWidth: 120, sortable: false, renderCell: ({ row }) => <FillCell quantity={row.current} capacity={row.max} /> },
    { field: 'state', headerName: t('inventory.state'), minWidth: 100, sortable: false, renderCell: ({ row }) => <SelectionState soldOut={row.sold_out} low={row.low} /> },
    col.money('price_minor', t('inventory.price')),
    col.money('value_minor', t('inventory.value')),
    { field: 'expiry_date', headerName: t('inventory.expiry'), minWidth: 120, renderCell: ({ row }) => <ExpiryCell date={row.expiry_date} /> },
  ];
  return (
    <ReportDrawer control={{ open, onClose }} testId="machine-stock" width={860} title={t('inventory.machineStock')}>
      <Autocomplete
        size="small"
        options={options}
        value={chosen}
        loading={machines.isLoading}
        getOptionLabel={(option) => option.name}
        isOptionEqualToValue={(option, selected) => option.id === selected.id}
        onChange={(_event, next) => setMachine(next?.id ?? null)}
        noOptionsText={t('reports.noOptions')}
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('inventory.machine')}
            slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'machine-stock-machine' } }}
          />
        )}
      />
      {stock.isError ? <ReportFailure query={stock} testId="machine-stock-error" text={t('inventory.loadFailed')} /> : null}
      {machine ? (
        <SummaryTable
          testId="machine-stock-table"
          title={chosen?.name ?? ''}
          subheader={t('inventory.soonestFirst')}
          rows={stock.data ?? []}
          getRowId={(row) => row.selection}
          columns={columns}
          loading={stock.isFetching}
          noRowsLabel={t('inventory.noSelections')}
          pageSize={25}
        />
      ) : (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('inventory.chooseMachine')}
        </Typography>
      )}
    </ReportDrawer>
  );
}
