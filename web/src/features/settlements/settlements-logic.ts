// The card settlements screen's rules: the statuses of a machine-day, the file read for upload,
// the server's per-cell errors as a readable list, and the mapping form's values.
import { isApiError } from '../../api/client';
import type { Mapping, MappingBody, MappingColumns, ReconRow, SettlementImport } from '../../api/types';

/** A machine-day's status, in the order the screen lists them. */
export const STATUSES = ['short', 'over', 'not_settled', 'settled_no_sales', 'matched'] as const;
export type SettlementStatus = (typeof STATUSES)[number];

/** Settled less in red, more (or without sales) in amber, not yet settled in blue, matched in green. */
export const STATUS_COLOR = { short: 'error', over: 'warning', not_settled: 'info', settled_no_sales: 'warning', matched: 'success' } as const;

export function isStatus(value: string): value is SettlementStatus {
  return (STATUSES as readonly string[]).includes(value);
}

/** The rows of one status, or all of them. */
export function rowsOfStatus(rows: readonly ReconRow[], status: SettlementStatus | null): ReconRow[] {
  return status ? rows.filter((row) => row.status === status) : [...rows];
}

/** A machine-day's row id. */
export function reconRowId(row: ReconRow): string {
  return `${row.machine_id}|${row.date}|${row.currency}`;
}

/** The largest file read for upload: its base64 in a JSON body stays under the server's 10 MiB. */
export const MAX_FILE_BYTES = 7 * 1024 * 1024;

/** What the file input offers: CSV and Excel workbooks. */
export const ACCEPT = '.csv,.xlsx,.txt,text/csv,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A file's bytes as base64 (the import's `content_base64`), read in the browser. */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  // `String.fromCharCode` takes its arguments on the stack: a chunk at a time.
  const CHUNK = 0x8000;
  let binary = '';
  for (let start = 0; start < bytes.length; start += CHUNK) binary += String.fromCharCode(...bytes.subarray(start, start + CHUNK));
  return btoa(binary);
}

/** One of the server's reasons for refusing a file: where (row, column) and what. */
export interface ImportProblem {
  key: string;
  /** The file's row (1 is the header), for a bad cell. */
  row: number | null;
  message: string;
}

const ROW_KEY = /^rows\.(\d+)\./;

/** Missing columns first, then the bad cells by row, then what is said of the whole file (how many more). */
function rank(key: string): number {
  if (key.startsWith('columns.')) return 0;
  if (ROW_KEY.test(key)) return 1;
  return 2;
}

/**
 * The server's 400 on an import as a list: every message of `columns.<field>`, `rows.<row>.<field>`
 * and `file`, the cells in file order. Empty when the failure was not the file's (a lost
 * connection): the caller shows the server's message then.
 */
export function importProblems(error: unknown): ImportProblem[] {
  if (!isApiError(error) || error.status !== 400) return [];
  const out: ImportProblem[] = [];
  for (const [key, messages] of Object.entries(error.errors ?? {})) {
    const row = ROW_KEY.exec(key);
    for (const [index, message] of (Array.isArray(messages) ? messages : []).entries()) {
      out.push({ key: `${key}#${index}`, row: row ? Number(row[1]) : null, message: String(message) });
    }
  }
  return out.sort((a, b) => rank(a.key) - rank(b.key) || (a.row ?? 0) - (b.row ?? 0));
}

/** The fields of a mapping, in the order the form shows them; the first four are required. */
export const COLUMN_FIELDS = ['date', 'terminal', 'gross', 'payout_reference', 'fees', 'net', 'count', 'currency'] as const;
export type ColumnField = (typeof COLUMN_FIELDS)[number];
export const REQUIRED_COLUMNS: readonly ColumnField[] = ['date', 'terminal', 'gross', 'payout_reference'];

/** The headers of the documented generic format (docs/api.md, "Card settlements"). */
export const GENERIC_COLUMNS: Record<ColumnField, string> = {
  date: 'date',
  terminal: 'terminal_id',
  gross: 'gross',
  payout_reference: 'payout_reference',
  fees: 'fees',
  net: 'net',
  count: 'transactions',
  currency: 'currency',
};

export const DEFAULT_DATE_FORMAT = '%Y-%m-%d';
export const DECIMAL_SEPARATORS = ['.', ','] as const;

export interface MappingValues {
  name: string;
  columns: Record<ColumnField, string>;
  date_format: string;
  decimal_separator: (typeof DECIMAL_SEPARATORS)[number];
  amounts_in_minor: boolean;
}

/** A new mapping: the generic format's settings, the columns left to fill (or the generic ones). */
export function emptyMappingValues(generic = false): MappingValues {
  const columns = Object.fromEntries(COLUMN_FIELDS.map((field) => [field, generic ? GENERIC_COLUMNS[field] : ''])) as Record<ColumnField, string>;
  return { name: '', columns, date_format: DEFAULT_DATE_FORMAT, decimal_separator: '.', amounts_in_minor: false };
}

export function valuesFromMapping(mapping: Mapping): MappingValues {
  const columns = Object.fromEntries(COLUMN_FIELDS.map((field) => [field, mapping.columns[field] ?? ''])) as Record<ColumnField, string>;
  return {
    name: mapping.name,
    columns,
    date_format: mapping.date_format || DEFAULT_DATE_FORMAT,
    decimal_separator: mapping.decimal_separator === ',' ? ',' : '.',
    amounts_in_minor: mapping.amounts_in_minor,
  };
}

/** The request body: texts trimmed, an optional column left empty is none. */
export function toMappingBody(values: MappingValues, version?: number): MappingBody {
  const column = (field: ColumnField) => values.columns[field].trim();
  const optional = (field: ColumnField) => column(field) || null;
  const columns: MappingColumns = {
    date: column('date'),
    terminal: column('terminal'),
    gross: column('gross'),
    payout_reference: column('payout_reference'),
    fees: optional('fees'),
    net: optional('net'),
    count: optional('count'),
    currency: optional('currency'),
  };
  return {
    name: values.name.trim(),
    columns,
    date_format: values.date_format.trim() || DEFAULT_DATE_FORMAT,
    decimal_separator: values.decimal_separator,
    amounts_in_minor: values.amounts_in_minor,
    ...(version === undefined ? {} : { version }),
  };
}

/** A correction in an import's history: a payout a later file superseded, or an earlier file it corrected. */
export type HistoryEntry = { kind: 'corrected_by'; payout: string; file: string } | { kind: 'corrects'; file: string };

/** An import's corrections, named by the other file (its id when it is not in the list). */
export function importHistory(row: SettlementImport, all: readonly SettlementImport[]): HistoryEntry[] {
  const fileOf = (id: string) => all.find((other) => other.id === id)?.file_name ?? id;
  const correctedBy = Object.entries(row.superseded)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([payout, id]): HistoryEntry => ({ kind: 'corrected_by', payout, file: fileOf(id) }));
  const corrects = row.supersedes.map((id): HistoryEntry => ({ kind: 'corrects', file: fileOf(id) }));
  return [...corrects, ...correctedBy];
}

/** Who sees the reconciliation, the payouts and the imported files. */
export const LIST_PERMISSION = 'reports.settlements.list';
/** Who imports files and keeps the processors' mappings. */
export const IMPORT_PERMISSION = 'reports.settlements.import';
/** Who downloads the reconciliation (CSV or XLSX). */
export const EXPORT_PERMISSION = 'reports.settlements.export';
