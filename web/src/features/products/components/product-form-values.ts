import * as z from 'zod/mini';
import { limitsOf } from '../../../api/limits';
import type { Product, ProductForm, RecipeLine, RecipeLineForm } from '../../../api/types';
import { addProblem, ids, list, percentOfBps, problemsOf, text, wholeNumber } from '../../../components/form/rules';
import { amountToMinor, currencyDecimals, minorToAmount } from '../../../components/money';
import { percentToBps, bpsToPercent } from '../../../components/percent';
import type { FieldProblem } from '../../../components/validation';

const limits = limitsOf('ProductForm');
const lineLimits = limitsOf('RecipeLineForm');

/** A recipe line as the editor holds it. */
const recipeLineValues = z.object({ component_id: z.string(), quantity: z.string() });
export type RecipeRow = z.infer<typeof recipeLineValues>;

/** A recipe's lines: a component chosen once per recipe, a whole quantity above 0. */
export const recipeSchema = list(
  z.object({
    component_id: text(lineLimits('component_id')),
    quantity: wholeNumber(lineLimits('quantity'), { message: 'validation.quantity' }),
  }),
  limits('recipe'),
).check(
  z.superRefine((rows, ctx) => {
    const seen = new Set<string>();
    rows.forEach((row, index) => {
      if (row.component_id && seen.has(row.component_id)) addProblem(ctx, [index, 'component_id'], 'validation.duplicateComponent');
      seen.add(row.component_id);
    });
  }),
);

/**
 * The product form's checks. The price is checked against its currency's decimals; a new
 * composite product (`withRecipe`) is checked with its recipe.
 */
export function productSchema(withRecipe: boolean) {
  return z
    .object({
      name: text(limits('name')),
      sku: text(limits('sku')),
      /** Decimal amount as typed, e.g. "1.50". */
      price: z.string(),
      currency: text(limits('currency'), { pattern: /^[A-Z]{3}$/, patternMessage: 'validation.currency' }),
      /** Percentage as typed, e.g. "10" or "5.5". */
      vat: percentOfBps(limits('vat_bps')),
      units: text(limits('units')),
      max_quantity: wholeNumber(limits('max_quantity')),
      case_size: wholeNumber(limits('case_size')),
      tag_ids: ids(limits('tag_ids')),
      inactive: z.boolean(),
      recipe: withRecipe ? recipeSchema : z.array(recipeLineValues),
    })
    .check(
      z.superRefine((values, ctx) => {
        const found = priceProblem(values.price, values.currency.trim() || 'EUR');
        if (found) addProblem(ctx, ['price'], found.key, found.values);
      }),
    );
}

export type ProductFormValues = z.infer<ReturnType<typeof productSchema>>;

export type ProductField = keyof ProductFormValues;

/** Server field names that differ from the form's. */
export const PRODUCT_ERROR_ALIASES = { price_minor: 'price', vat_bps: 'vat' };

export function emptyProductValues(): ProductFormValues {
  return {
    name: '',
    sku: '',
    price: '',
    currency: 'EUR',
    vat: '',
    units: 'pcs',
    max_quantity: '',
    case_size: '',
    tag_ids: [],
    inactive: false,
    recipe: [{ component_id: '', quantity: '' }],
  };
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
    case_size: product.case_size == null ? '' : String(product.case_size),
    tag_ids: [...product.tag_ids],
    inactive: product.inactive,
    recipe: [],
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

export function validateProduct(values: ProductFormValues, withRecipe = false) {
  return problemsOf(productSchema(withRecipe), values);
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
    case_size: values.case_size.trim() ? Number(values.case_size.trim()) : null,
    tag_ids: values.tag_ids,
    inactive: values.inactive,
    is_composite: isComposite,
  };
  if (recipe) form.recipe = recipe;
  if (version !== undefined) form.version = version;
  return form;
}

export function recipeRows(lines: RecipeLine[]): RecipeRow[] {
  return lines.map((line) => ({ component_id: line.component_id, quantity: String(line.quantity) }));
}

/** Problems by line and field (`1.quantity`). */
export function validateRecipe(rows: RecipeRow[]) {
  return problemsOf(recipeSchema, rows);
}

export function toRecipeLines(rows: RecipeRow[]): RecipeLineForm[] {
  return rows.map((row) => ({ component_id: row.component_id, quantity: Number(row.quantity.trim()) }));
}
