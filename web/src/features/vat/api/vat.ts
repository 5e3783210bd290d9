// The VAT report (issue 31): the period's sales by VAT rate (gross, net, VAT), taxable and exempt
// apart, and the same by client, location or month; its export for the accountant.
import type { Query } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { useReportData } from '../../../api/report-queries';
import type { components } from '../../../api/schema';
import type { ExportFormat } from '../../../components/export-menu';

type Schemas = components['schemas'];

export type VatReport = Schemas['VatReport'];
/** Gross, net and VAT of a set of sales, with how many were sold. */
export type VatFigures = Schemas['VatFigures'];
/** One rate's totals. */
export type VatRate = Schemas['VatRate'];
/** One group (client, location, month) at one rate. */
export type VatRow = Schemas['VatRow'];

const base = '/api/vat/';

/** The report of the filters, grouped by `group` (in `query`). */
export function useVatReport(query: Query) {
  return useReportData<VatReport>(base, query, true);
}

/** The report of the filters as CSV or XLSX; a large file is queued as a job. */
export function exportVat(format: ExportFormat, query: Query) {
  return requestExport(`${base}export/`, { ...query, format }, `vat.${format}`);
}
