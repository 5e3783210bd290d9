import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlined';
import { isApiError } from '../../../api/client';
import type { Product, Recipe } from '../../../api/types';
import { LoadingScreen } from '../../../components/loading-screen';
import { fieldMessages, isStaleVersion } from '../../../components/server-errors';
import { toast } from '../../../components/snackbar';
import { useComponentOptions, useRecipe, useSaveRecipe } from '../api/products';
import { recipeRows, toRecipeLines, validateRecipe, type RecipeRow, type RecipeRowErrors } from './product-form-values';

let nextKey = 0;
const freshKey = () => `new-${(nextKey += 1)}`;

interface LinesProps {
  rows: RecipeRow[];
  errors: RecipeRowErrors[];
  /** Names and units of the components already in the recipe (shown before the options load). */
  names?: Map<string, string>;
  units?: Map<string, string>;
  onChange: (rows: RecipeRow[]) => void;
}

/** The rows of a recipe: component and quantity, add and remove. */
export function RecipeLines({ rows, errors, names = new Map(), units = new Map(), onChange }: LinesProps) {
  const { t } = useTranslation();
  const components = useComponentOptions();
  const options = components.data ?? [];
  const update = (key: string, patch: Partial<RecipeRow>) => onChange(rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  return (
    <>
        {rows.length === 0 ? (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('products.noRecipe')}
          </Typography>
        ) : null}
        {rows.map((row, index) => {
          const rowErrors = errors[index] ?? {};
          const chosen = row.component_id
            ? (options.find((option) => option.id === row.component_id) ?? {
                id: row.component_id,
                name: names.get(row.component_id) ?? row.component_id,
              })
            : null;
          return (
            <Box key={row.key} sx={{ display: 'grid', gap: 2, gridTemplateColumns: '1fr 160px auto', alignItems: 'flex-start' }} data-testid="recipe-row">
              <Autocomplete
                options={options}
                value={chosen}
                loading={components.isLoading}
                noOptionsText={t('users.noOptions')}
                getOptionLabel={(option) => option.name}
                isOptionEqualToValue={(option, value) => option.id === value.id}
                onChange={(_event, next) => update(row.key, { component_id: next?.id ?? '' })}
                renderInput={(params) => (
                  <TextField
                    {...params}
                    label={t('products.component')}
                    error={Boolean(rowErrors.component_id)}
                    helperText={rowErrors.component_id ? t(rowErrors.component_id.key, rowErrors.component_id.values) : undefined}
                    slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': `recipe-component-${index}` } }}
                  />
                )}
              />
              <TextField
                label={t('products.quantity')}
                value={row.quantity}
                onChange={(event) => update(row.key, { quantity: event.target.value })}
                error={Boolean(rowErrors.quantity)}
                helperText={rowErrors.quantity ? t(rowErrors.quantity.key, rowErrors.quantity.values) : undefined}
                slotProps={{
                  htmlInput: { inputMode: 'numeric', 'data-testid': `recipe-quantity-${index}` },
                  input: units.get(row.component_id) ? { endAdornment: <InputAdornment position="end">{units.get(row.component_id)}</InputAdornment> } : undefined,
                }}
              />
              <Tooltip title={t('products.removeComponent')}>
                <IconButton
                  aria-label={t('products.removeComponent')}
                  color="error"
                  sx={{ mt: 1 }}
                  onClick={() => onChange(rows.filter((other) => other.key !== row.key))}
                >
                  <RemoveIcon />
                </IconButton>
              </Tooltip>
            </Box>
          );
        })}
        <Box>
          <Button
            startIcon={<AddIcon />}
            onClick={() => onChange([...rows, { key: freshKey(), component_id: '', quantity: '' }])}
            data-testid="recipe-add"
          >
            {t('products.addComponent')}
          </Button>
        </Box>
    </>
  );
}

/** Server messages such as `recipe[1].quantity` placed on their rows. */
export function recipeErrorsFrom(fields: Record<string, string>, count: number): RecipeRowErrors[] {
  const out: RecipeRowErrors[] = Array.from({ length: count }, () => ({}));
  for (const [field, text] of Object.entries(fields)) {
    const match = /^recipe\[(\d+)\]\.(component_id|quantity)$/.exec(field);
    if (match && out[Number(match[1])]) out[Number(match[1])][match[2] as 'component_id' | 'quantity'] = { key: 'validation.server', values: { message: text } };
  }
  return out;
}

function RecipeEditor({ product, recipe, onClose }: { product: Product; recipe: Recipe; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveRecipe(product.id);
  const [rows, setRows] = useState<RecipeRow[]>(() => recipeRows(recipe.recipe));
  const [errors, setErrors] = useState<RecipeRowErrors[]>([]);
  const [problem, setProblem] = useState('');
  const units = new Map(recipe.recipe.map((line) => [line.component_id, line.unit]));
  const names = new Map(recipe.recipe.map((line) => [line.component_id, line.component_name]));

  const submit = async () => {
    const found = validateRecipe(rows);
    setErrors(found);
    if (found.some((row) => Object.keys(row).length > 0)) return;
    setProblem('');
    try {
      await save.mutateAsync({ recipe: toRecipeLines(rows), version: recipe.version });
      toast.success(t('success.recipeUpdated'));
      onClose();
    } catch (error) {
      const fields = fieldMessages(error);
      setErrors(recipeErrorsFrom(fields, rows.length));
      setProblem(isStaleVersion(error) ? t('errors.staleVersion') : Object.values(fields)[0] || (isApiError(error) ? error.message : ''));
      toast.error(t('errors.recipeSave'));
    }
  };

  return (
    <>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }} data-testid="recipe-editor">
        {problem ? <Alert severity="error">{problem}</Alert> : null}
        <RecipeLines rows={rows} errors={errors} names={names} units={units} onChange={(next) => {
          setRows(next);
          setErrors([]);
        }} />
      </DialogContent>
      <DialogActions>
        <Button variant="outlined" color="inherit" onClick={onClose} disabled={save.isPending}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" loading={save.isPending} onClick={() => void submit()} data-testid="recipe-submit">
          {t('common.save')}
        </Button>
      </DialogActions>
    </>
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
