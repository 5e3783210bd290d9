import { describe, expect, it } from 'vitest';
import { emptyProductValues, recipeRows, toProductForm, validateProduct, validateRecipe, valuesFromProduct } from './components/product-form-values';
import type { Product } from '../../api/types';

describe('product form', () => {
  it('sends the price in minor units and VAT in basis points', () => {
    const values = { ...emptyProductValues(), name: 'Espresso', price: '1,20', vat: '10' };
    expect(validateProduct(values)).toEqual({});
    const form = toProductForm(values, 3);
    expect(form.price_minor).toBe(120);
    expect(form.vat_bps).toBe(1000);
    expect(form.version).toBe(3);
    expect(form.is_composite).toBe(false);
    expect(toProductForm(values, 3, true).is_composite).toBe(true);
  });

  it('refuses a bad price, VAT over 100 % and a max quantity of 0', () => {
    const problems = validateProduct({ ...emptyProductValues(), name: 'X', price: '1.234', vat: '120', max_quantity: '0' });
    expect(problems.price?.key).toBe('validation.amountDecimals');
    expect(problems.vat?.key).toBe('validation.range');
    expect(problems.max_quantity?.key).toBe('validation.range');
  });

  it('shows a stored product as typed values', () => {
    const product = { name: 'Tea', sku: '', price_minor: 95, currency: 'EUR', vat_bps: 550, units: 'pcs', max_quantity: null, tag_ids: [], inactive: false } as unknown as Product;
    const values = valuesFromProduct(product);
    expect(values.price).toBe('0.95');
    expect(values.vat).toBe('5.5');
    expect(recipeRows([{ component_id: 'c', component_name: 'C', unit: 'g', quantity: 8 }])[0].quantity).toBe('8');
  });

  it('checks recipe lines', () => {
    const problems = validateRecipe([
      { component_id: 'c1', quantity: '8' },
      { component_id: 'c1', quantity: '0' },
      { component_id: '', quantity: 'x' },
    ]);
    expect(Object.keys(problems).filter((path) => path.startsWith('0.'))).toEqual([]);
    expect(problems['1.component_id']?.key).toBe('validation.duplicateComponent');
    expect(problems['1.quantity']?.key).toBe('validation.quantity');
    expect(problems['2.component_id']?.key).toBe('validation.required');
    expect(problems['2.quantity']?.key).toBe('validation.quantity');
  });
});
