import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DataGrid,
  GridActionsCellItem,
  GridRowModes,
  type GridColDef,
  type GridPreProcessEditCellProps,
  type GridRowModesModel,
  type GridRowSelectionModel,
} from '@mui/x-data-grid';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import AddIcon from '@mui/icons-material/Add';
import CancelIcon from '@mui/icons-material/CloseOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import EmptyIcon from '@mui/icons-material/RemoveShoppingCartOutlined';
import FillIcon from '@mui/icons-material/AddShoppingCartOutlined';
import SaveIcon from '@mui/icons-material/SaveOutlined';
import { isApiError } from '../../../api/client';
import type { Machine } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDate, formatDateTime } from '../../../components/format';
import { EMPTY_SELECTION, gridLoading, selectedIds } from '../../../components/grid';
import { useGridLocaleText } from '../../../components/grid-locale';
import { amountToMinor, formatMoney } from '../../../components/money';
import { fieldMessages } from '../../../components/server-errors';
import { actionsWidth, CHECKBOX_WIDTH, fitColumns, HEADER_SX, useWidth } from '../../../components/server-list/column-widths';
import { toast } from '../../../components/snackbar';
import { useProductOptions } from '../../../api/filter-options';
import { useDeleteSelections, usePlanogram, useRestock, useSaveSelection, useSetStock } from '../api/planogram';
import { ProductEditCell, TextEditCell } from './planogram-cells';
import {
  newRow,
  NEW_ROW_ID,
  PLANOGRAM_ERROR_ALIASES,
  restockTargets,
  rowFromSelection,
  toSelectionForm,
  validateSelectionRow,
  type PlanogramField,
  type PlanogramRow,
} from './planogram-values';

type Pending = 'fill' | 'empty' | 'delete' | null;

/** Thrown by `processRowUpdate` when a row is refused; the grid keeps the row in edit mode. */
class RowRefused extends Error {}

/** The machine's product selections, edited inline. */
export function PlanogramTab({ machine }: { machine: Machine }) {
  const { t, i18n } = useTranslation();
  const can = usePermission();
  const localeText = useGridLocaleText();
  const decimals = machine.decimal_places ?? 2;
  const canEditProduct = can('settings.machines.edit_product');
  const canEditStock = can('settings.machines.edit_quantity_expiry');
  const planogram = usePlanogram(machine.id);
  const products = useProductOptions(canEditProduct);
  const save = useSaveSelection();
  const setStock = useSetStock();
  const remove = useDeleteSelections();
  const restock = useRestock();
  const [adding, setAdding] = useState(false);
  const [rowModes, setRowModes] = useState<GridRowModesModel>({});
  const [selection, setSelection] = useState<GridRowSelectionModel>(EMPTY_SELECTION);
  const [pending, setPending] = useState<Pending>(null);
  const [rowProblems, setRowProblems] = useState<string[]>([]);

  const rows = useMemo(() => {
    const saved = (planogram.data ?? []).map((item) => rowFromSelection(item, decimals));
    return adding ? [...saved, newRow()] : saved;
  }, [planogram.data, decimals, adding]);
  const chosen = restockTargets(selectedIds(selection, rows));
  const labels: Record<PlanogramField, string> = {
    selection: t('machines.selection'),
    product_id: t('machines.product'),
    max: t('machines.max'),
    price: t('machines.price'),
    current: t('machines.current'),
    expiry_date: t('machines.expiryDate'),
  };

  /** Checks one field against the row being edited (other fields as currently typed). */
  const check =
    (field: PlanogramField) =>
    (params: GridPreProcessEditCellProps) => {
      const values = { ...(params.row as PlanogramRow) };
      for (const [name, props] of Object.entries(params.otherFieldsProps ?? {})) {
        (values as Record<string, unknown>)[name] = props.value ?? '';
      }
      (values as Record<string, unknown>)[field] = params.props.value ?? '';
      const problem = validateSelectionRow(values, decimals)[field];
      // An empty field is not flagged while typing (the row is checked as a whole on save).
      const shown = problem && problem.key !== 'validation.required' ? problem : undefined;
      return { ...params.props, error: shown ? t(shown.key, shown.values) : false };
    };

  const stockOnly = !canEditProduct && canEditStock;
  const editable = (field: PlanogramField) => canEditProduct || (canEditStock && (field === 'current' || field === 'expiry_date'));

  const processRowUpdate = async (row: PlanogramRow): Promise<PlanogramRow> => {
    const problems = validateSelectionRow(row, decimals);
    const listed = Object.entries(problems).map(([field, problem]) => `${labels[field as PlanogramField]}: ${t(problem.key, problem.values)}`);
    if (listed.length > 0) {
      setRowProblems(listed);
      throw new RowRefused(listed.join('; '));
    }
    setRowProblems([]);
    try {
      if (stockOnly) {
        await setStock.mutateAsync({
          machineId: machine.id,
          selection: row.selection,
          current: Number(row.current.trim()),
          expiry_date: row.expiry_date.trim() || null,
        });
        toast.success(t('success.stockUpdated'));
      } else {
        await save.mutateAsync(toSelectionForm(machine.id, row, decimals));
        toast.success(t('success.selectionSaved'));
      }
    } catch (error) {
      const fields = fieldMessages(error, PLANOGRAM_ERROR_ALIASES);
      const messages = Object.entries(fields).map(([field, text]) => `${labels[field as PlanogramField] ?? field}: ${text}`);
      setRowProblems(messages.length > 0 ? messages : [isApiError(error) ? error.message : t('errors.unexpected')]);
      toast.error(t('errors.selectionSave'));
      throw new RowRefused('refused', { cause: error });
    }
    if (row.isNew) setAdding(false);
    const name = products.data?.find((option) => option.id === row.product_id)?.name ?? row.product_name;
    return { ...row, product_name: name };
  };

  const startAdd = () => {
    setAdding(true);
    setRowProblems([]);
    setRowModes((previous) => ({ ...previous, [NEW_ROW_ID]: { mode: GridRowModes.Edit, fieldToFocus: 'selection' } }));
  };

  const cancel = (id: string) => {
    setRowModes((previous) => ({ ...previous, [id]: { mode: GridRowModes.View, ignoreModifications: true } }));
    setRowProblems([]);
    if (id === NEW_ROW_ID) setAdding(false);
  };

  const confirmPending = async () => {
    try {
      if (pending === 'delete') {
        await remove.mutateAsync({ machine_id: machine.id, selections: chosen });
        toast.success(t('success.selectionsDeleted'));
      } else if (pending) {
        await restock.mutateAsync({ fill: pending === 'fill', machine_id: machine.id, selections: chosen });
        toast.success(pending === 'fill' ? t('success.stockFilled') : t('success.stockEmptied'));
      }
      setSelection(EMPTY_SELECTION);
    } catch (error) {
      toast.error(pending === 'delete' ? t('errors.deletion') : isApiError(error) && error.message ? error.message : t('errors.stockChange'));
    } finally {
      setPending(null);
    }
  };

  const [gridBox, setGridBox] = useState<HTMLDivElement | null>(null);
  const gridWidth = useWidth(gridBox);
  const actionsColumnWidth = actionsWidth(2, t('common.actions'));

  const textColumn = (field: Exclude<PlanogramField, 'product_id'>, width: number, inputMode: 'text' | 'decimal' | 'numeric', type: 'text' | 'date' = 'text'): GridColDef<PlanogramRow> => ({
    field,
    headerName: labels[field],
    minWidth: width,
    flex: field === 'selection' ? 0.3 : 0.4,
    sortable: false,
    editable: editable(field),
    preProcessEditCellProps: check(field),
    renderEditCell: (params) => <TextEditCell params={params} inputMode={inputMode} type={type} />,
  });

  const columns: GridColDef<PlanogramRow>[] = [
    textColumn('selection', 76, 'text'),
    {
      field: 'product_id',
      headerName: labels.product_id,
      minWidth: 130,
      flex: 1,
      sortable: false,
      editable: canEditProduct,
      preProcessEditCellProps: check('product_id'),
      renderCell: ({ row }) => row.product_name,
      renderEditCell: (params) => <ProductEditCell params={params} options={products.data ?? []} loading={products.isLoading} />,
    },
    textColumn('max', 64, 'numeric'),
    {
      ...textColumn('price', 88, 'decimal'),
      renderCell: ({ row }) => {
        const minor = amountToMinor(row.price, decimals);
        return minor.ok ? formatMoney(minor.minor, machine.currency, i18n.language, decimals) : row.price;
      },
    },
    textColumn('current', 76, 'numeric'),
    { field: 'remaining', headerName: t('machines.remaining'), type: 'number', minWidth: 80, flex: 0.4, sortable: false },
    {
      ...textColumn('expiry_date', 120, 'text', 'date'),
      renderCell: ({ row }) => (row.expiry_date ? formatDate(row.expiry_date, i18n.language) : '—'),
    },
    {
      field: 'last_purchase',
      headerName: t('machines.lastPurchase'),
      minWidth: 112,
      flex: 0.5,
      sortable: false,
      renderCell: ({ row }) => (row.last_purchase ? formatDateTime(row.last_purchase, i18n.language) : t('common.never')),
    },
    {
      field: 'actions',
      type: 'actions',
      headerName: t('common.actions'),
      width: actionsColumnWidth,
      getActions: ({ id, row }) => {
        if (rowModes[id]?.mode === GridRowModes.Edit) {
          return [
            <GridActionsCellItem
              key="save"
              icon={<SaveIcon />}
              label={t('common.save')}
              data-testid="planogram-save"
              onClick={() => setRowModes((previous) => ({ ...previous, [id]: { mode: GridRowModes.View } }))}
            />,
            <GridActionsCellItem key="cancel" icon={<CancelIcon />} label={t('common.cancel')} onClick={() => cancel(String(id))} />,
          ];
        }
        if (!canEditProduct && !canEditStock) return [];
        return [
          <GridActionsCellItem
            key="edit"
            icon={<EditIcon />}
            label={`${t('common.edit')}: ${row.selection}`}
            onClick={() => {
              setRowProblems([]);
              setRowModes((previous) => ({ ...previous, [id]: { mode: GridRowModes.Edit, fieldToFocus: stockOnly ? 'current' : 'product_id' } }));
            }}
          />,
        ];
      },
    },
  ];

  // Headers and the actions stay on screen from 1280 px up (see column-widths.ts).
  const selectable = canEditProduct || canEditStock;
  const fitted = [
    ...fitColumns(columns.slice(0, -1), {
      available: gridWidth,
      reserved: (selectable ? CHECKBOX_WIDTH : 0) + actionsColumnWidth,
      sorts: () => false,
    }),
    columns[columns.length - 1],
  ];

  const count = planogram.data?.length ?? 0;

  return (
    <Card>
      <Box sx={{ p: 2.5, display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center' }}>
        {canEditProduct ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={startAdd} disabled={adding} data-testid="add-selection">
            {t('machines.addSelection')}
          </Button>
        ) : null}
        {canEditProduct && chosen.length > 0 ? (
          <Button variant="outlined" color="error" startIcon={<DeleteIcon />} onClick={() => setPending('delete')} data-testid="delete-selections">
            {t('machines.deleteSelected')} ({t('common.selected', { count: chosen.length })})
          </Button>
        ) : null}
        <Box sx={{ flexGrow: 1 }} />
        {canEditStock && count > 0 ? (
          <>
            <Button variant="outlined" color="inherit" startIcon={<FillIcon />} onClick={() => setPending('fill')} data-testid="fill-stock">
              {t('machines.fillStock')}
            </Button>
            <Button variant="outlined" color="inherit" startIcon={<EmptyIcon />} onClick={() => setPending('empty')} data-testid="empty-stock">
              {t('machines.emptyStock')}
            </Button>
          </>
        ) : null}
      </Box>
      {rowProblems.length > 0 ? (
        <Alert severity="error" sx={{ mx: 2.5, mb: 2 }} data-testid="planogram-problems">
          {rowProblems.map((problem) => (
            <div key={problem}>{problem}</div>
          ))}
        </Alert>
      ) : null}
      <Box ref={setGridBox} data-testid="planogram-grid" aria-busy={planogram.isFetching}>
        <DataGrid
          rows={rows}
          columns={fitted}
          {...gridLoading(planogram.isFetching)}
          editMode="row"
          rowModesModel={rowModes}
          onRowModesModelChange={setRowModes}
          onRowEditStop={(params, event) => {
            // Leaving the row by clicking elsewhere keeps it in edit mode: save and cancel are explicit.
            if (params.reason === 'rowFocusOut') event.defaultMuiPrevented = true;
          }}
          isCellEditable={({ row, field }) => field !== 'selection' || row.isNew}
          processRowUpdate={processRowUpdate}
          onProcessRowUpdateError={(error: unknown) => {
            if (!(error instanceof RowRefused)) toast.error(t('errors.unexpected'));
          }}
          checkboxSelection={selectable}
          isRowSelectable={({ row }) => !row.isNew}
          disableRowSelectionOnClick
          rowSelectionModel={selection}
          onRowSelectionModelChange={setSelection}
          hideFooter={rows.length <= 100}
          localeText={{ ...localeText, noRowsLabel: t('machines.noSelections') }}
          autoHeight
          sx={{ border: 'none', '--DataGrid-overlayHeight': '200px', ...HEADER_SX }}
        />
      </Box>
      <ConfirmDialog
        open={pending !== null}
        title={pending === 'fill' ? t('machines.fillStock') : pending === 'empty' ? t('machines.emptyStock') : t('machines.deleteSelected')}
        content={
          pending === 'delete'
            ? t('machines.deleteSelectionsConfirm', { count: chosen.length })
            : chosen.length === 0
              ? pending === 'fill'
                ? t('machines.fillConfirmAll')
                : t('machines.emptyConfirmAll')
              : pending === 'fill'
                ? t('machines.fillConfirm', { count: chosen.length })
                : t('machines.emptyConfirm', { count: chosen.length })
        }
        confirmLabel={pending === 'fill' ? t('machines.fillStock') : pending === 'empty' ? t('machines.emptyStock') : t('common.delete')}
        confirmColor={pending === 'fill' ? 'primary' : 'error'}
        loading={restock.isPending || remove.isPending}
        onConfirm={() => void confirmPending()}
        onClose={() => setPending(null)}
      />
    </Card>
  );
}
