import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputAdornment from '@mui/material/InputAdornment';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Option, Product } from '../../../api/types';
import { formatDateTime } from '../../../components/format';
import { formatMoney } from '../../../components/money';
import { fieldMessages, isStaleVersion } from '../../../components/server-errors';
import { toast } from '../../../components/snackbar';
import type { FieldErrors } from '../../../components/validation';
import { useProductDetail, useProductTagOptions, useSaveProduct } from '../api/products';
import { RecipeLines, recipeErrorsFrom } from './recipe-dialog';
import {
  emptyProductValues,
  PRODUCT_ERROR_ALIASES,
  toProductForm,
  validateProduct,
  valuesFromProduct,
  toRecipeLines,
  validateRecipe,
  type ProductField,
  type ProductFormValues,
  type RecipeRow,
  type RecipeRowErrors,
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

/** Create or edit a product or a composite product (its recipe has its own editor). */
export function ProductDialog({ product, composite, onClose }: Props) {
  const { t } = useTranslation();
  const creating = !product;
  const [values, setValues] = useState<ProductFormValues>(product ? valuesFromProduct(product) : emptyProductValues());
  const [errors, setErrors] = useState<FieldErrors<ProductField>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [stale, setStale] = useState(false);
  const [recipe, setRecipe] = useState<RecipeRow[]>([{ key: 'first', component_id: '', quantity: '' }]);
  const [recipeErrors, setRecipeErrors] = useState<RecipeRowErrors[]>([]);
  /** A new composite product is created with its recipe; afterwards the recipe has its own editor. */
  const withRecipe = composite && creating;
  const tags = useProductTagOptions();
  const save = useSaveProduct(composite);

  const set = <F extends keyof ProductFormValues>(field: F, value: ProductFormValues[F]) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
    setServerErrors((previous) => ({ ...previous, [field]: '' }));
  };

  const message = (field: ProductField): string | undefined => {
    const problem = errors[field];
    if (problem) return t(problem.key, problem.values);
    return serverErrors[field] || undefined;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateProduct(values);
    const foundLines = withRecipe ? validateRecipe(recipe) : [];
    setErrors(found);
    setRecipeErrors(foundLines);
    if (Object.keys(found).length > 0 || foundLines.some((line) => Object.keys(line).length > 0)) return;
    setStale(false);
    try {
      await save.mutateAsync({
        id: product?.id,
        form: toProductForm(values, product?.version, composite, withRecipe ? toRecipeLines(recipe) : undefined),
      });
      toast.success(creating ? t('success.productCreated') : t('success.productUpdated'));
      onClose();
    } catch (error) {
      const fields = fieldMessages(error, PRODUCT_ERROR_ALIASES);
      setServerErrors(fields);
      if (withRecipe) setRecipeErrors(recipeErrorsFrom(fields, recipe.length));
      setStale(!creating && isStaleVersion(error));
      toast.error(creating ? t('errors.productCreate') : t('errors.productUpdate'));
    }
  };

  const text = (field: Exclude<ProductField, 'tag_ids'>, label: string, options: { required?: boolean; hint?: string; end?: string; decimal?: boolean } = {}) => (
    <TextField
      name={field}
      label={label}
      value={values[field]}
      onChange={(event) => set(field, field === 'currency' ? event.target.value.toUpperCase() : event.target.value)}
      error={Boolean(message(field))}
      helperText={message(field) ?? options.hint}
      required={options.required}
      autoComplete="off"
      fullWidth
      slotProps={{
        htmlInput: options.decimal ? { inputMode: 'decimal' } : undefined,
        input: options.end ? { endAdornment: <InputAdornment position="end">{options.end}</InputAdornment> } : undefined,
      }}
    />
  );

  const tagOptions = tags.data ?? [];
  const chosenTags: Option[] = values.tag_ids.map(
    (id) => tagOptions.find((tag) => tag.id === id) ?? product?.tags.find((tag) => tag.id === id) ?? { id, name: id },
  );
  const title = composite ? (creating ? t('products.newComposite') : t('products.editComposite')) : creating ? t('products.newProduct') : t('products.editProduct');

  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} fullWidth maxWidth="md">
      <Box component="form" noValidate onSubmit={(event) => void submit(event)} data-testid="product-dialog">
        <DialogTitle>{title}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2.5, pt: '8px !important' }}>
          {stale ? <Alert severity="warning">{t('errors.staleVersion')}</Alert> : null}
          <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '2fr 1fr' } }}>
            {text('name', t('products.name'), { required: true })}
            {text('sku', t('products.sku'))}
          </Box>
          <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr' } }}>
            {text('price', t('products.price'), { decimal: true, end: values.currency })}
            {text('currency', t('products.currency'))}
            {text('vat', t('products.vat'), { decimal: true, hint: t('products.vatHint'), end: '%' })}
          </Box>
          <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            {text('units', t('products.units'))}
            {text('max_quantity', t('products.maxQuantity'), { hint: t('products.maxQuantityHint') })}
          </Box>
          <Autocomplete
            multiple
            options={tagOptions}
            value={chosenTags}
            loading={tags.isLoading}
            noOptionsText={t('users.noOptions')}
            getOptionLabel={(option) => option.name}
            isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
            onChange={(_event, next) => set('tag_ids', next.map((option) => option.id))}
            renderInput={(params) => (
              <TextField {...params} name="tag_ids" label={t('products.tags')} error={Boolean(message('tag_ids'))} helperText={message('tag_ids')} />
            )}
          />
          <FormControlLabel
            control={<Switch name="inactive" checked={values.inactive} onChange={(event) => set('inactive', event.target.checked)} />}
            label={t('products.inactive')}
          />
          {withRecipe ? (
            <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="recipe-editor">
              <Typography variant="subtitle2">{t('products.recipe')}</Typography>
              {serverErrors.recipe ? <Alert severity="error">{serverErrors.recipe}</Alert> : null}
              <RecipeLines
                rows={recipe}
                errors={recipeErrors}
                onChange={(next) => {
                  setRecipe(next);
                  setRecipeErrors([]);
                  setServerErrors((previous) => ({ ...previous, recipe: '' }));
                }}
              />
            </Box>
          ) : null}
          {product ? <PriceHistory id={product.id} /> : null}
        </DialogContent>
        <DialogActions>
          <Button variant="outlined" color="inherit" onClick={onClose} disabled={save.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending} data-testid="product-submit">
            {creating ? title : t('common.saveChanges')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
