import type { Query } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { useReportData, type ReportListSource } from '../../../api/report-queries';
import type { Encashment, EncashmentTotals } from '../../../api/types';
import type { ExportFormat } from '../../../components/export-menu';

const base = '/api/encashments/';

/** The period's collections, newest first, a page at a time. */
export const encashmentList: ReportListSource<Encashment> = { path: base };

/** The period's totals and its overs and shorts by employee and by machine (most short first). */
export function useEncashmentTotals(query: Query) {
  return useReportData<EncashmentTotals>(`${base}total/`, query, true);
}

/** Every collection of the filters as CSV or XLSX; a large file is queued as a job. */
export function exportEncashments(format: ExportFormat, query: Query) {
  return requestExport(`${base}export/`, { ...query, format }, `encashment.${format}`);
}
