import { useFieldArray, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlined';
import type { Option, Product, Recipe } from '../../../api/types';
import { Form, FormAlerts, OptionInput, TextInput, useFieldMessage, useServerForm } from '../../../components/form';
import { FormDialogActions } from '../../../components/form/form-dialog';
import { LoadingScreen } from '../../../components/loading-screen';
import { toast } from '../../../components/snackbar';
import { useComponentOptions, useRecipe, useSaveRecipe } from '../api/products';
import { recipeRows, recipeSchema, toRecipeLines, type RecipeRow } from './product-form-values';

type RecipeValues = { recipe: RecipeRow[] };

interface LinesProps {
  /** The components already in the recipe and their units (shown before the options load). */
  known?: Option[];
  units?: Map<string, string>;
}

/** The rows of the form's `recipe`: component and quantity, add and remove. */
export function RecipeLines({ known, units = new Map() }: LinesProps) {
  const { t } = useTranslation();
  const components = useComponentOptions();
  const options = components.data ?? [];
  const { fields, append, remove } = useFieldArray<RecipeValues, 'recipe'>({ name: 'recipe' });
  const rows = useWatch<RecipeValues, 'recipe'>({ name: 'recipe' });
  // A message on the whole recipe (too many lines, or the server's).
  const message = useFieldMessage('recipe');
  return (
    <>
      {message ? <Alert severity="error">{message}</Alert> : null}
      {fields.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('products.noRecipe')}
        </Typography>
      ) : null}
      {fields.map((row, index) => {
        const unit = units.get(rows[index]?.component_id ?? '');
        return (
          <Box key={row.id} sx={{ display: 'grid', gap: 2, gridTemplateColumns: '1fr 160px auto', alignItems: 'flex-start' }} data-testid="recipe-row">
            <OptionInput
              name={`recipe.${index}.component_id`}
              label={t('products.component')}
              options={options}
              known={known}
              loading={components.isLoading}
              testId={`recipe-component-${index}`}
            />
            <TextInput
              name={`recipe.${index}.quantity`}
              label={t('products.quantity')}
              slotProps={{
                htmlInput: { inputMode: 'numeric', 'data-testid': `recipe-quantity-${index}` },
                input: unit ? { endAdornment: <InputAdornment position="end">{unit}</InputAdornment> } : undefined,
              }}
            />
            <Tooltip title={t('products.removeComponent')}>
              <IconButton aria-label={t('products.removeComponent')} color="error" sx={{ mt: 1 }} onClick={() => remove(index)}>
                <RemoveIcon />
              </IconButton>
            </Tooltip>
          </Box>
        );
      })}
      <Box>
        <Button startIcon={<AddIcon />} onClick={() => append({ component_id: '', quantity: '' })} data-testid="recipe-add">
          {t('products.addComponent')}
        </Button>
      </Box>
    </>
  );
}

const editorSchema = z.object({ recipe: recipeSchema });

function RecipeEditor({ product, recipe, onClose }: { product: Product; recipe: Recipe; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveRecipe(product.id);
  const form = useServerForm({ schema: editorSchema, defaultValues: { recipe: recipeRows(recipe.recipe) }, versioned: true });
  const units = new Map(recipe.recipe.map((line) => [line.component_id, line.unit]));
  const known = recipe.recipe.map((line) => ({ id: line.component_id, name: line.component_name }));
  const saving = form.formState.isSubmitting;

  const submit = form.submitWith(
    async (values) => {
      await save.mutateAsync({ recipe: toRecipeLines(values.recipe), version: recipe.version });
      toast.success(t('success.recipeUpdated'));
      onClose();
    },
    { onError: () => toast.error(t('errors.recipeSave')) },
  );

  return (
    <Form form={form} onSubmit={submit}>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }} data-testid="recipe-editor">
        <FormAlerts stale={form.stale} />
        <RecipeLines known={known} units={units} />
      </DialogContent>
      <FormDialogActions saving={saving} onCancel={onClose} submitLabel={t('common.save')} submitTestId="recipe-submit" />
    </Form>
  );
}

/** The recipe editor of a composite product: rows of component and quantity. */
export function RecipeDialog({ product, onClose }: { product: Product; onClose: () => void }) {
  const { t } = useTranslation();
  const recipe = useRecipe(product.id);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('products.recipeTitle', { name: product.name })}</DialogTitle>
      {recipe.data ? (
        <RecipeEditor key={recipe.data.version} product={product} recipe={recipe.data} onClose={onClose} />
      ) : recipe.isError ? null : (
        <LoadingScreen inline />
      )}
    </Dialog>
  );
}
