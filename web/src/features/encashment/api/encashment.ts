import type { Query } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { useReportData, useReportList } from '../../../api/report-queries';
import type { Encashment, EncashmentTotals } from '../../../api/types';
import type { ExportFormat } from '../../../components/export-menu';
import type { ListParams } from '../../../components/server-list/use-list-state';

const base = '/api/encashments/';

/** One page of the period's collections, newest first. */
export function useEncashments(query: Query, list: ListParams) {
  return useReportList<Encashment>(base, { ...query, page: list.page, page_size: list.page_size }, true);
}

/** The period's totals and its overs and shorts by employee and by machine (most short first). */
export function useEncashmentTotals(query: Query) {
  return useReportData<EncashmentTotals>(`${base}total/`, query, true);
}

/** Every collection of the filters as CSV or XLSX; a large file is queued as a job. */
export function exportEncashments(format: ExportFormat, query: Query) {
  return requestExport(`${base}export/`, { ...query, format }, `encashment.${format}`);
}
