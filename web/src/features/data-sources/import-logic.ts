// The history import's rules (issue 49, docs/history-import.md): the file cut in parts, where an
// import stands, the preview's rows, and the mapping form (its values, checks and request body).
import * as z from 'zod/mini';
import type { HistoryImport, HistoryImportError, HistoryImportMonth, HistoryImportStatus, HistoryImportUnmatched, HistoryMapping, HistoryMappingBody, HistoryMappingColumns } from '../../api/types';
import { addProblem, text } from '../../components/form/rules';
import { blankTexts, byField, withVersion } from '../../components/form/values';

/** Who imports a history (and keeps the mappings it is read through). */
export const IMPORT_PERMISSION = 'settings.data_sources.import';

/** The reading of Nayax Core's transactions export: the `mapping_id` that is no saved mapping. */
export const NAYAX_READING = 'nayax';

/** The largest part of a file the server takes in one request (5 MiB). */
export const PART_BYTES = 5 * 1024 * 1024;

/** What the file input offers: CSV and Excel workbooks. */
export const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** How many parts a file of `size` bytes is sent in (an empty file is refused before). */
export function partCount(size: number): number {
  return Math.ceil(size / PART_BYTES);
}

/** The `n`-th part of a file (0 first): 5 MiB, the last one what is left. */
export function partOf(file: Blob, n: number): Blob {
  return file.slice(n * PART_BYTES, Math.min(file.size, (n + 1) * PART_BYTES));
}

/** The bytes sent once the parts before `n` are in. */
export function bytesBefore(n: number, size: number): number {
  return Math.min(size, n * PART_BYTES);
}

/**
 * The part an unfinished upload goes on from with `file`, or null when `file` cannot be the one
 * being imported (another name, or smaller than what the server received).
 */
export function resumePart(item: Pick<HistoryImport, 'file_name' | 'parts' | 'bytes'>, file: Pick<File, 'name' | 'size'>): number | null {
  if (file.name !== item.file_name || file.size < item.bytes || item.bytes !== bytesBefore(item.parts, file.size)) return null;
  return item.parts;
}

/** Every status, in the order an import goes through them. */
export const STATUSES = ['uploading', 'previewing', 'previewed', 'booking', 'booked', 'failed'] as const satisfies readonly HistoryImportStatus[];

export const STATUS_COLOR = { uploading: 'default', previewing: 'info', previewed: 'warning', booking: 'info', booked: 'success', failed: 'error' } as const;

export function isStatus(value: string): value is HistoryImportStatus {
  return (STATUSES as readonly string[]).includes(value);
}

/** A background job is at work on it: its progress moves, and it is read again until it ends. */
export function isRunning(status: string | undefined): boolean {
  return status === 'previewing' || status === 'booking';
}

/** The file's rows in error stop the booking until they are skipped on purpose. */
export function canBook(item: Pick<HistoryImport, 'status' | 'preview'>, skipBadRows: boolean): boolean {
  if (item.status !== 'previewed' || !item.preview) return false;
  return item.preview.bad_rows === 0 || skipBadRows;
}

/** The preview lists at most this many machine-months. */
export const MAX_MONTHS = 5000;

export const monthRowId = (row: HistoryImportMonth) => `${row.machine_id}|${row.month}|${row.currency}`;
export const unmatchedRowId = (row: HistoryImportUnmatched) => `${row.kind}|${row.value}`;

/** A row in error with an id (a line may have several columns in error). */
export type ErrorRow = HistoryImportError & { id: string };

export function errorRows(errors: readonly HistoryImportError[]): ErrorRow[] {
  return errors.map((error, index) => ({ ...error, id: `${error.line}|${index}` }));
}

/** Who created an import, by name. */
export function creatorOf(item: Pick<HistoryImport, 'created_by' | 'created_by_name'>): string {
  return item.created_by_name || item.created_by;
}

/** A size in bytes as megabytes in the user's language ("12.5 MB"). */
export function formatMegabytes(bytes: number, language: string): string {
  const megabytes = bytes / (1024 * 1024);
  return new Intl.NumberFormat(language, { style: 'unit', unit: 'megabyte', maximumFractionDigits: megabytes < 10 ? 1 : 0 }).format(megabytes);
}

// --- The mapping form -----------------------------------------------------------------------------

/** The fields a mapping names a column for, in the order the form shows them. */
export const COLUMN_FIELDS = ['date', 'time', 'machine', 'product', 'selection', 'quantity', 'unit_price', 'amount', 'payment', 'transaction_id', 'status'] as const satisfies readonly (keyof HistoryMappingColumns)[];
export type ColumnField = (typeof COLUMN_FIELDS)[number];
export const REQUIRED_COLUMNS: readonly ColumnField[] = ['date', 'machine'];

export const DEFAULT_DATE_FORMAT = '%Y-%m-%d %H:%M:%S';
export const DEFAULT_TIME_FORMAT = '%H:%M:%S';
/** Each machine's location zone. */
export const MACHINE_ZONE = 'machine';
export const DECIMAL_SEPARATORS = ['.', ','] as const;
export const DEFAULT_CASH_VALUES = ['cash', '3'];
export const DEFAULT_SKIP_VALUES = ['cancelled', 'declined', 'void', 'refund'];

export interface MappingValues {
  name: string;
  columns: Record<ColumnField, string>;
  date_format: string;
  time_format: string;
  zone: string;
  decimal_separator: (typeof DECIMAL_SEPARATORS)[number];
  /** Typed as one text, the values separated by commas. */
  cash_values: string;
  skip_values: string;
}

/** A list as the form shows it: "cash, 3". */
const joined = (values: readonly string[]) => values.join(', ');

/** "cash, 3 ,, Cash" → ["cash", "3"]: trimmed, each once (case ignored, as the server compares). */
export function splitValues(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(',')) {
    const value = part.trim();
    if (value && !out.some((known) => known.toLowerCase() === value.toLowerCase())) out.push(value);
  }
  return out;
}

export function emptyMappingValues(): MappingValues {
  return {
    name: '',
    columns: blankTexts(COLUMN_FIELDS),
    date_format: DEFAULT_DATE_FORMAT,
    time_format: DEFAULT_TIME_FORMAT,
    zone: MACHINE_ZONE,
    decimal_separator: '.',
    cash_values: joined(DEFAULT_CASH_VALUES),
    skip_values: joined(DEFAULT_SKIP_VALUES),
  };
}

export function valuesFromMapping(mapping: HistoryMapping): MappingValues {
  return {
    name: mapping.name,
    columns: byField(COLUMN_FIELDS, (field) => mapping.columns[field] ?? ''),
    date_format: mapping.date_format || DEFAULT_DATE_FORMAT,
    time_format: mapping.time_format || DEFAULT_TIME_FORMAT,
    zone: mapping.zone || MACHINE_ZONE,
    decimal_separator: mapping.decimal_separator === ',' ? ',' : '.',
    cash_values: joined(mapping.cash_values ?? []),
    skip_values: joined(mapping.skip_values ?? []),
  };
}

const present = (value: string) => value.trim() !== '';

/**
 * The form's checks, the server's own rules: a name, the date's and the machine's columns, the
 * product's or the selection's, the unit price's or the amount's.
 */
export const mappingSchema = z
  .object({
    name: text({ required: true }),
    columns: z.object(byField(COLUMN_FIELDS, (field) => text({ required: REQUIRED_COLUMNS.includes(field) }))),
    date_format: text({ required: false }),
    time_format: text({ required: false }),
    zone: text({ required: false }),
    decimal_separator: z.enum(DECIMAL_SEPARATORS),
    cash_values: z.string(),
    skip_values: z.string(),
  })
  .check(
    z.superRefine((values, ctx) => {
      if (!present(values.columns.product) && !present(values.columns.selection)) addProblem(ctx, ['columns', 'product'], 'dataSources.imports.productOrSelection');
      if (!present(values.columns.unit_price) && !present(values.columns.amount)) addProblem(ctx, ['columns', 'unit_price'], 'dataSources.imports.priceOrAmount');
    }),
  );

/**
 * The request body: texts trimmed, a column left empty is none, the formats' defaults when empty.
 * A change keeps the columns of the mapping read that the form does not show (`kept`).
 */
export function toMappingBody(values: MappingValues, version?: number, kept?: HistoryMappingColumns): HistoryMappingBody {
  const column = (field: ColumnField) => values.columns[field].trim();
  const optional = (field: ColumnField) => column(field) || null;
  const columns: HistoryMappingColumns = {
    ...kept,
    date: column('date'),
    time: optional('time'),
    machine: column('machine'),
    product: optional('product'),
    selection: optional('selection'),
    quantity: optional('quantity'),
    unit_price: optional('unit_price'),
    amount: optional('amount'),
    payment: optional('payment'),
    transaction_id: optional('transaction_id'),
    status: optional('status'),
  };
  return withVersion(
    {
      name: values.name.trim(),
      columns,
      date_format: values.date_format.trim() || DEFAULT_DATE_FORMAT,
      time_format: values.time_format.trim() || DEFAULT_TIME_FORMAT,
      zone: values.zone.trim() || MACHINE_ZONE,
      decimal_separator: values.decimal_separator,
      cash_values: splitValues(values.cash_values),
      skip_values: splitValues(values.skip_values),
    },
    version,
  );
}

/** The columns a mapping reads, "Date · Machine · SKU · Price". */
export function columnsText(mapping: HistoryMapping): string {
  return COLUMN_FIELDS.map((field) => mapping.columns[field])
    .filter(Boolean)
    .join(' · ');
}
