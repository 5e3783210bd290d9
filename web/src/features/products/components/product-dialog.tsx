import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Product } from '../../../api/types';
import { MultiOptionInput, SwitchInput, TextInput, useServerForm } from '../../../components/form';
import { FormDialog } from '../../../components/form/form-dialog';
import { formatDateTime } from '../../../components/format';
import { formatMoney } from '../../../components/money';
import { useProductTagOptions } from '../../../api/filter-options';
import { useProductDetail, useSaveProduct } from '../api/products';
import { RecipeLines } from './recipe-dialog';
import {
  emptyProductValues,
  PRODUCT_ERROR_ALIASES,
  productSchema,
  toProductForm,
  toRecipeLines,
  valuesFromProduct,
  type ProductFormValues,
} from './product-form-values';

interface Props {
  product?: Product;
  composite: boolean;
  onClose: () => void;
}

function PriceHistory({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const detail = useProductDetail(id);
  const history = detail.data?.price_history ?? [];
  return (
    <Box data-testid="price-history">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {t('products.priceHistory')}
      </Typography>
      {history.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('products.noPriceHistory')}
        </Typography>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('products.changedAt')}</TableCell>
              <TableCell>{t('products.changedBy')}</TableCell>
              <TableCell align="right">{t('products.oldPrice')}</TableCell>
              <TableCell align="right">{t('products.newPrice')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {history.map((change) => (
              <TableRow key={`${change.changed_at}-${change.new_price_minor}`}>
                <TableCell>{formatDateTime(change.changed_at, i18n.language)}</TableCell>
                <TableCell>{change.changed_by.name}</TableCell>
                <TableCell align="right">
                  {change.old_price_minor == null ? '—' : formatMoney(change.old_price_minor, change.currency, i18n.language)}
                </TableCell>
                <TableCell align="right">{formatMoney(change.new_price_minor, change.currency, i18n.language)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}

/** The price field, its currency shown after the amount. */
function PriceInput() {
  const { t } = useTranslation();
  const currency = useWatch<ProductFormValues, 'currency'>({ name: 'currency' });
  return (
    <TextInput
      name="price"
      label={t('products.price')}
      slotProps={{
        htmlInput: { inputMode: 'decimal' },
        input: currency ? { endAdornment: <InputAdornment position="end">{currency}</InputAdornment> } : undefined,
      }}
    />
  );
}

const upper = (value: string) => value.toUpperCase();

/** Create or edit a product or a composite product (its recipe has its own editor). */
export function ProductDialog({ product, composite, onClose }: Props) {
  const { t } = useTranslation();
  const creating = !product;
  /** A new composite product is created with its recipe; afterwards the recipe has its own editor. */
  const withRecipe = composite && creating;
  const schema = useMemo(() => productSchema(withRecipe), [withRecipe]);
  const form = useServerForm({
    schema,
    defaultValues: product ? valuesFromProduct(product) : emptyProductValues(),
    aliases: PRODUCT_ERROR_ALIASES,
    versioned: !creating,
  });
  const tags = useProductTagOptions();
  const save = useSaveProduct(composite);

  const title = composite ? (creating ? t('products.newComposite') : t('products.editComposite')) : creating ? t('products.newProduct') : t('products.editProduct');

  return (
    <FormDialog
      form={form}
      save={(values) =>
        save.mutateAsync({
          id: product?.id,
          form: toProductForm(values, product?.version, composite, withRecipe ? toRecipeLines(values.recipe) : undefined),
        })
      }
      success={creating ? t('success.productCreated') : t('success.productUpdated')}
      failure={creating ? t('errors.productCreate') : t('errors.productUpdate')}
      onClose={onClose}
      title={title}
      maxWidth="md"
      testId="product-dialog"
      submitLabel={creating ? title : t('common.saveChanges')}
      submitTestId="product-submit"
    >
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '2fr 1fr' } }}>
        <TextInput name="name" label={t('products.name')} required />
        <TextInput name="sku" label={t('products.sku')} />
      </Box>
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr' } }}>
        <PriceInput />
        <TextInput name="currency" label={t('products.currency')} normalize={upper} />
        <TextInput
          name="vat"
          label={t('products.vat')}
          helperText={t('products.vatHint')}
          slotProps={{ htmlInput: { inputMode: 'decimal' }, input: { endAdornment: <InputAdornment position="end">%</InputAdornment> } }}
        />
      </Box>
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <TextInput name="units" label={t('products.units')} />
        <TextInput name="max_quantity" label={t('products.maxQuantity')} helperText={t('products.maxQuantityHint')} />
        <TextInput name="case_size" label={t('products.caseSize')} helperText={t('products.caseSizeHint')} />
      </Box>
      <MultiOptionInput name="tag_ids" label={t('products.tags')} options={tags.data ?? []} known={product?.tags} loading={tags.isLoading} />
      <SwitchInput name="inactive" label={t('products.inactive')} />
      {withRecipe ? (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="recipe-editor">
          <Typography variant="subtitle2">{t('products.recipe')}</Typography>
          <RecipeLines />
        </Box>
      ) : null}
      {product ? <PriceHistory id={product.id} /> : null}
    </FormDialog>
  );
}
