import { fieldLimits } from '../../../api/limits';
import type { Selection, SelectionForm } from '../../../api/types';
import { amountToMinor, minorToAmount } from '../../../components/money';
import { collect, type FieldErrors, type FieldProblem } from '../../../components/validation';

/** A planogram row as the grid edits it: numbers and the price as typed texts. */
export interface PlanogramRow {
  /** The selection code, or `NEW_ROW_ID` for the row being added. */
  id: string;
  isNew: boolean;
  selection: string;
  product_id: string;
  product_name: string;
  max: string;
  /** Decimal amount in the machine's currency, e.g. "1.50". */
  price: string;
  current: string;
  /** YYYY-MM-DD or empty. */
  expiry_date: string;
  remaining: number | null;
  last_purchase: string | null;
}

export type PlanogramField = 'selection' | 'product_id' | 'max' | 'price' | 'current' | 'expiry_date';

export const NEW_ROW_ID = '__new__';
/** The most a selection holds, as the server declares it. */
export const MAX_SLOT = fieldLimits('SelectionForm', 'max').maximum ?? 10_000;

/** Server field names that differ from the grid's. */
export const PLANOGRAM_ERROR_ALIASES = { price_minor: 'price' };

export function rowFromSelection(selection: Selection, decimals: number): PlanogramRow {
  return {
    id: selection.selection,
    isNew: false,
    selection: selection.selection,
    product_id: selection.product_id,
    product_name: selection.product_name,
    max: String(selection.max),
    price: minorToAmount(selection.price_minor, decimals),
    current: String(selection.current),
    expiry_date: selection.expiry_date ?? '',
    remaining: selection.remaining,
    last_purchase: selection.last_purchase ?? null,
  };
}

export function newRow(): PlanogramRow {
  return {
    id: NEW_ROW_ID,
    isNew: true,
    selection: '',
    product_id: '',
    product_name: '',
    max: '',
    price: '',
    current: '0',
    expiry_date: '',
    remaining: null,
    last_purchase: null,
  };
}

/** A whole number typed by a person; `null` when it is not one. */
function wholeNumber(text: string): number | null {
  const v = text.trim();
  return /^\d{1,9}$/.test(v) ? Number(v) : null;
}

/** A real calendar date written YYYY-MM-DD. */
export function isRealDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function priceProblem(text: string, decimals: number): FieldProblem | undefined {
  if (!text.trim()) return { key: 'validation.required' };
  const result = amountToMinor(text, decimals);
  if (result.ok) return undefined;
  if (result.reason === 'decimals') return { key: 'validation.amountDecimals', values: { count: decimals } };
  if (result.reason === 'range') return { key: 'validation.amountRange' };
  return { key: 'validation.amount' };
}

/** The problems of one planogram row (the same rules as the server's). */
export function validateSelectionRow(row: Pick<PlanogramRow, PlanogramField>, decimals: number): FieldErrors<PlanogramField> {
  const code = row.selection.trim();
  const max = wholeNumber(row.max);
  const current = wholeNumber(row.current);
  let currentProblem: FieldProblem | undefined;
  if (current === null) currentProblem = row.current.trim() ? { key: 'validation.wholeNumber' } : { key: 'validation.required' };
  else if (max !== null && current > max) currentProblem = { key: 'validation.currentAboveMax' };
  return collect<PlanogramField>({
    selection: !code
      ? { key: 'validation.required' }
      : code.length > 10 || !/^[A-Za-z0-9-]+$/.test(code)
        ? { key: 'validation.selectionCode' }
        : undefined,
    product_id: row.product_id ? undefined : { key: 'validation.required' },
    max:
      max === null
        ? row.max.trim()
          ? { key: 'validation.wholeNumber' }
          : { key: 'validation.required' }
        : max < 1 || max > MAX_SLOT
          ? { key: 'validation.range', values: { min: 1, max: MAX_SLOT } }
          : undefined,
    price: priceProblem(row.price, decimals),
    current: currentProblem,
    expiry_date: row.expiry_date.trim() && !isRealDate(row.expiry_date) ? { key: 'validation.date' } : undefined,
  });
}

/** The body of `POST /api/machines/products/`. Call after `validateSelectionRow`. */
export function toSelectionForm(machineId: string, row: PlanogramRow, decimals: number): SelectionForm {
  const price = amountToMinor(row.price, decimals);
  return {
    machine_id: machineId,
    selection: row.selection.trim(),
    product_id: row.product_id,
    max: Number(row.max.trim()),
    price_minor: price.ok ? price.minor : 0,
    current: Number(row.current.trim()),
    expiry_date: row.expiry_date.trim() || null,
  };
}

/** The selections a fill / empty applies to: the chosen ones, or all (an empty list) when none is chosen. */
export function restockTargets(chosen: string[]): string[] {
  return chosen.filter((id) => id !== NEW_ROW_ID);
}
