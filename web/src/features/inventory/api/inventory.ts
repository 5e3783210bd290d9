import { useQuery } from '@tanstack/react-query';
import { api, type Query } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { reportKeys, type ReportListSource } from '../../../api/report-queries';
import { expectData } from '../../../api/replies';
import type { ComponentStock, ProductStock, SelectionStock } from '../../../api/types';
import type { ExportFormat } from '../../../components/export-menu';
import type { InventoryTab } from '../../../components/report-filters/report-filter-state';

/** The stock by product in the chosen machines, most units first, a page at a time; `search` by name. */
export const productStock: ReportListSource<ProductStock> = { path: '/api/inventories/', idOf: (row) => row.product_id };

/** The stock by component (what the composite products consume), a page at a time; `search` by name. */
export const componentStock: ReportListSource<ComponentStock> = { path: '/api/inventories/components/', idOf: (row) => row.component_id };

/** One machine's selections, expiring soonest first. */
export function useMachineStock(machineId: string | null) {
  const path = `/api/inventories/machines/${encodeURIComponent(machineId ?? '')}/`;
  return useQuery({
    queryKey: reportKeys.read(path, {}),
    queryFn: async () => expectData(await api.get<{ data: SelectionStock[] }>(path)),
    enabled: Boolean(machineId),
  });
}

/** A tab of the inventory (every row of the filters) as CSV or XLSX; a large file is queued as a job. */
export function exportInventory(tab: InventoryTab, format: ExportFormat, query: Query) {
  return requestExport('/api/inventory/export/', { ...query, tab, format }, `inventory-${tab}.${format}`);
}
