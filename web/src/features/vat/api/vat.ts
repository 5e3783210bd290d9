// The VAT report (issue 31): the period's sales by VAT rate (gross, net, VAT), taxable and exempt
// apart, and the same by client, location or month; its export for the accountant.
import type { Query } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { useReportData } from '../../../api/report-queries';
import type { VatReport } from '../../../api/types';
import type { ExportFormat } from '../../../components/export-menu';

const base = '/api/vat/';

/** The report of the filters, grouped by `group` (in `query`). */
export function useVatReport(query: Query) {
  return useReportData<VatReport>(base, query, true);
}

/** The report of the filters as CSV or XLSX; a large file is queued as a job. */
export function exportVat(format: ExportFormat, query: Query) {
  return requestExport(`${base}export/`, { ...query, format }, `vat.${format}`);
}
