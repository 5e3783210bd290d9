import { useQuery } from '@tanstack/react-query';
import { api, type Query } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { reportKeys, useReportList } from '../../../api/report-queries';
import { expectData } from '../../../api/replies';
import type { ComponentStock, ProductStock, SelectionStock } from '../../../api/types';
import type { ExportFormat } from '../../../components/export-menu';
import type { InventoryTab } from '../../../components/report-filters/report-filter-state';
import type { ListParams } from '../../../components/server-list/use-list-state';

const productId = (row: ProductStock) => row.product_id;
const componentId = (row: ComponentStock) => row.component_id;
const pageOf = (query: Query, list: ListParams): Query => ({ ...query, page: list.page, page_size: list.page_size, search: list.search || undefined });

/** One page of the stock by product in the chosen machines, most units first; `search` by name. */
export function useProductStock(query: Query, list: ListParams) {
  return useReportList<ProductStock>('/api/inventories/', pageOf(query, list), true, productId);
}

/** One page of the stock by component (what the composite products consume). */
export function useComponentStock(query: Query, list: ListParams) {
  return useReportList<ComponentStock>('/api/inventories/components/', pageOf(query, list), true, componentId);
}

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
