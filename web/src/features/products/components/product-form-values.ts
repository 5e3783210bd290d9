import type { Product, ProductForm, RecipeLine, RecipeLineForm } from '../../../api/types';
import { amountToMinor, currencyDecimals, minorToAmount } from '../../../components/money';
import { bpsToPercent, percentToBps } from '../../../components/percent';
import { collect, rules, type FieldErrors, type FieldProblem } from '../../../components/validation';

export interface ProductFormValues {
  name: string;
  sku: string;
  /** Decimal amount as typed, e.g. "1.50". */
  price: string;
  currency: string;
  /** Percentage as typed, e.g. "10" or "5.5". */
  vat: string;
  units: string;
  max_quantity: string;
  tag_ids: string[];
  inactive: boolean;
}

export type ProductField = 'name' | 'sku' | 'price' | 'currency' | 'vat' | 'units' | 'max_quantity' | 'tag_ids';

/** Server field names that differ from the form's. */
export const PRODUCT_ERROR_ALIASES = { price_minor: 'price', vat_bps: 'vat' };

export function emptyProductValues(): ProductFormValues {
  return { name: '', sku: '', price: '', currency: 'EUR', vat: '', units: 'pcs', max_quantity: '', tag_ids: [], inactive: false };
}

export function valuesFromProduct(product: Product): ProductFormValues {
  return {
    name: product.name,
    sku: product.sku ?? '',
    price: minorToAmount(product.price_minor, currencyDecimals(product.currency)),
    currency: product.currency || 'EUR',
    vat: product.vat_bps ? bpsToPercent(product.vat_bps) : '',
    units: product.units ?? '',
    max_quantity: product.max_quantity == null ? '' : String(product.max_quantity),
    tag_ids: [...product.tag_ids],
    inactive: product.inactive,
  };
}

function priceProblem(text: string, currency: string): FieldProblem | undefined {
  if (!text.trim()) return undefined;
  const decimals = currencyDecimals(currency);
  const result = amountToMinor(text, decimals);
  if (result.ok) return undefined;
  if (result.reason === 'decimals') return { key: 'validation.amountDecimals', values: { count: decimals } };
  return result.reason === 'range' ? { key: 'validation.amountRange' } : { key: 'validation.amount' };
}

function vatProblem(text: string): FieldProblem | undefined {
  const result = percentToBps(text);
  if (result.ok) return undefined;
  return result.reason === 'range' ? { key: 'validation.range', values: { min: 0, max: 100 } } : { key: 'validation.percent' };
}

function maxQuantityProblem(text: string): FieldProblem | undefined {
  const v = text.trim();
  if (!v) return undefined;
  if (!/^\d{1,9}$/.test(v)) return { key: 'validation.wholeNumber' };
  const n = Number(v);
  return n >= 1 && n <= 10_000 ? undefined : { key: 'validation.range', values: { min: 1, max: 10_000 } };
}

export function validateProduct(values: ProductFormValues): FieldErrors<ProductField> {
  const currency = values.currency.trim();
  return collect<ProductField>({
    name: rules.required(values.name) ?? rules.maxLength(values.name, 150),
    sku: rules.maxLength(values.sku, 64),
    price: priceProblem(values.price, currency || 'EUR'),
    currency: !currency || /^[A-Z]{3}$/.test(currency) ? undefined : { key: 'validation.currency' },
    vat: vatProblem(values.vat),
    units: rules.maxLength(values.units, 20),
    max_quantity: maxQuantityProblem(values.max_quantity),
    tag_ids: undefined,
  });
}

/**
 * The body for POST or PUT (with the version read). `isComposite` must be sent on every update of
 * a composite product (the server would otherwise make it a simple one); `recipe` only on create.
 * Call after `validateProduct`.
 */
export function toProductForm(values: ProductFormValues, version?: number, isComposite = false, recipe?: RecipeLineForm[]): ProductForm {
  const currency = values.currency.trim() || 'EUR';
  const price = amountToMinor(values.price || '0', currencyDecimals(currency));
  const vat = percentToBps(values.vat);
  const form: ProductForm = {
    name: values.name.trim(),
    sku: values.sku.trim(),
    price_minor: price.ok ? price.minor : 0,
    currency,
    vat_bps: vat.ok ? vat.bps : 0,
    units: values.units.trim() || 'pcs',
    max_quantity: values.max_quantity.trim() ? Number(values.max_quantity.trim()) : null,
    tag_ids: values.tag_ids,
    inactive: values.inactive,
    is_composite: isComposite,
  };
  if (recipe) form.recipe = recipe;
  if (version !== undefined) form.version = version;
  return form;
}

/** A recipe line as the editor holds it. */
export interface RecipeRow {
  key: string;
  component_id: string;
  quantity: string;
}

export type RecipeRowErrors = Partial<Record<'component_id' | 'quantity', FieldProblem>>;

export function recipeRows(lines: RecipeLine[]): RecipeRow[] {
  return lines.map((line, index) => ({ key: `line-${index}`, component_id: line.component_id, quantity: String(line.quantity) }));
}

/** Problems per line: a component chosen once, a whole quantity above 0. */
export function validateRecipe(rows: RecipeRow[]): RecipeRowErrors[] {
  const seen = new Set<string>();
  return rows.map((row) => {
    const out: RecipeRowErrors = {};
    if (!row.component_id) out.component_id = { key: 'validation.required' };
    else if (seen.has(row.component_id)) out.component_id = { key: 'validation.duplicateComponent' };
    seen.add(row.component_id);
    const v = row.quantity.trim();
    if (!v) out.quantity = { key: 'validation.required' };
    else if (!/^\d{1,9}$/.test(v) || Number(v) < 1) out.quantity = { key: 'validation.quantity' };
    return out;
  });
}

export function toRecipeLines(rows: RecipeRow[]): RecipeLineForm[] {
  return rows.map((row) => ({ component_id: row.component_id, quantity: Number(row.quantity.trim()) }));
}
