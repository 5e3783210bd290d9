import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '../../api/types';
import { fakeApi } from '../../test/fake-api';
import { renderRoutes, signedIn } from '../../test/render-app';
import { ProductsTable } from './components/products-table';

const product = (id: string, name: string, max_quantity: number | null): Product => ({
  id, name, sku: '', price_minor: 80, currency: 'EUR', vat_bps: 2200, units: 'pcs', max_quantity, case_size: null,
  tag_ids: [], tags: [], inactive: false, is_composite: false, recipe: [],
  createdAt: '2026-11-26T08:00:00Z', updated_at: '2026-11-26T08:00:00Z', version: 1,
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('products table', () => {
  it('shows a product’s max quantity, and a dash where it has none (no limit)', async () => {
    fakeApi({
      'GET /api/products/': () => ({ status: 200, body: { data: [product('p1', 'Cola 33 cl', 1200), product('p2', 'Acqua 50 cl', null)], pagination: { count: 2 } } }),
      'GET /api/filters/products/tags/': () => ({ status: 200, body: { data: [] } }),
    });
    renderRoutes([{ path: '/', element: <ProductsTable composite={false} onEdit={() => {}} /> }], '/', signedIn(['settings.products.list']));
    const maxQuantity = async (name: string) => {
      const row = (await screen.findByText(name)).closest('[role="row"]') as HTMLElement;
      return within(row).getAllByRole('gridcell').find((cell) => cell.dataset.field === 'max_quantity')?.textContent;
    };
    expect(await maxQuantity('Cola 33 cl')).toBe('1,200');
    expect(await maxQuantity('Acqua 50 cl')).toBe('—');
  });
});
