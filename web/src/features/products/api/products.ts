import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { requestExport } from '../../../api/download';
import { expectItem, expectList, expectReply } from '../../../api/replies';
import type {
  Component,
  ComponentForm,
  ItemReply,
  ListReply,
  MessageReply,
  Option,
  Product,
  ProductDetail,
  ProductForm,
  ProductTag,
  ProductTagForm,
  Recipe,
  RecipeForm,
} from '../../../api/types';
import { productFilterKeys, productKeys, type ProductListParams, type SimpleListParams } from './keys';

const base = '/api/products/';
const enc = encodeURIComponent;

function useInvalidateProducts() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: productKeys.all }),
      client.invalidateQueries({ queryKey: productFilterKeys.all }),
      // Planograms show product names.
      client.invalidateQueries({ queryKey: ['machines'] }),
    ]);
}

function optionList(queryKey: readonly string[], path: string) {
  return {
    queryKey,
    queryFn: async () => (await api.get<{ data: Option[] }>(path)).data ?? [],
    staleTime: 60_000,
  };
}

export const useComponentOptions = () => useQuery(optionList(productFilterKeys.components, '/api/filters/products/components/'));

// ---------- products and composite products ----------

/** Downloads the products (or composite products) matching the filters as CSV or XLSX; a large one is queued as a job (see `requestExport`). */
export async function exportProducts(format: 'csv' | 'xlsx', composite: boolean, filters: Omit<ProductListParams, 'page' | 'page_size'>) {
  return requestExport(`${base}export/`, { format, composite: String(composite), ...filters }, `${composite ? 'composite-products' : 'products'}.${format}`);
}

/** Products, or composite products (`composite`), paged. */
export function useProducts(composite: boolean, params: ProductListParams) {
  return useQuery({
    queryKey: productKeys.list(composite, params),
    queryFn: async () =>
      expectList(await api.get<ListReply<Product>>(composite ? `${base}composite-products/` : base, { query: { ...params } })),
    placeholderData: keepPreviousData,
  });
}

/** A product with its price history. */
export function useProductDetail(id: string | undefined) {
  return useQuery({
    queryKey: productKeys.detail(id ?? ''),
    queryFn: async () => expectItem(await api.get<ItemReply<ProductDetail>>(`${base}${enc(id ?? '')}/detail/`)).data,
    enabled: Boolean(id),
    staleTime: 0,
  });
}

export function useSaveProduct(composite: boolean) {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: async ({ id, form }: { id?: string; form: ProductForm }) => {
      if (id) return expectItem(expectReply(await api.put<ItemReply<Product>>(`${base}${enc(id)}/`, form))).data;
      const path = composite ? `${base}composite-products/` : base;
      return expectItem(expectReply(await api.post<ItemReply<Product>>(path, form))).data;
    },
    onSuccess: invalidate,
  });
}

export function useDeleteProduct(composite: boolean) {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: (id: string) => api.del<MessageReply>(composite ? `${base}composite-products/${enc(id)}/` : `${base}${enc(id)}/`),
    onSuccess: invalidate,
  });
}

export function useRecipe(id: string) {
  return useQuery({
    queryKey: productKeys.recipe(id),
    queryFn: async () => (await api.get<{ data: Recipe }>(`${base}composite-products/${enc(id)}/recipe/`)).data,
    staleTime: 0,
  });
}

export function useSaveRecipe(id: string) {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: async (form: RecipeForm) =>
      expectReply(await api.put<{ message: string; data: Recipe }>(`${base}composite-products/${enc(id)}/recipe/`, form)),
    onSuccess: invalidate,
  });
}

// ---------- components ----------

export function useComponents(params: SimpleListParams, enabled = true) {
  return useQuery({
    enabled,
    queryKey: productKeys.components(params),
    queryFn: async () => expectList(await api.get<ListReply<Component>>(`${base}components/`, { query: { ...params } })),
    placeholderData: keepPreviousData,
  });
}

export function useSaveComponent() {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: async ({ id, form }: { id?: string; form: ComponentForm }) =>
      id
        ? expectReply(await api.put<ItemReply<Component>>(`${base}components/${enc(id)}/`, form))
        : expectReply(await api.post<ItemReply<Component>>(`${base}components/`, form)),
    onSuccess: invalidate,
  });
}

export function useDeleteComponent() {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: (id: string) => api.del<MessageReply>(`${base}components/${enc(id)}/`),
    onSuccess: invalidate,
  });
}

// ---------- product tags ----------

export function useProductTags(params: SimpleListParams, enabled = true) {
  return useQuery({
    enabled,
    queryKey: productKeys.tags(params),
    queryFn: async () => expectList(await api.get<ListReply<ProductTag>>(`${base}tags/`, { query: { ...params } })),
    placeholderData: keepPreviousData,
  });
}

export function useSaveProductTag() {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: async ({ id, form }: { id?: string; form: ProductTagForm }) =>
      id
        ? expectReply(await api.put<ItemReply<ProductTag>>(`${base}tags/${enc(id)}/`, form))
        : expectReply(await api.post<ItemReply<ProductTag>>(`${base}tags/`, form)),
    onSuccess: invalidate,
  });
}

export function useDeleteProductTag() {
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: (id: string) => api.del<MessageReply>(`${base}tags/${enc(id)}/`),
    onSuccess: invalidate,
  });
}
