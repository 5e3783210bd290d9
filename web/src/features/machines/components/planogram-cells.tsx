import { useGridApiContext, type GridRenderEditCellParams } from '@mui/x-data-grid';
import Autocomplete from '@mui/material/Autocomplete';
import InputBase from '@mui/material/InputBase';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import type { Option } from '../../../api/types';

/** The message `preProcessEditCellProps` put in `error`, if any. */
function errorText(params: GridRenderEditCellParams): string {
  return typeof params.error === 'string' ? params.error : '';
}

interface TextCellProps {
  params: GridRenderEditCellParams;
  type?: 'text' | 'date';
  inputMode?: 'text' | 'decimal' | 'numeric';
}

/** A text edit cell that shows its validation message in a tooltip under the cell. */
export function TextEditCell({ params, type = 'text', inputMode = 'text' }: TextCellProps) {
  const apiRef = useGridApiContext();
  const message = errorText(params);
  return (
    <Tooltip open={Boolean(message)} title={<span data-testid="planogram-error">{message}</span>} placement="bottom-start" arrow disableInteractive slotProps={{ popper: { sx: { pointerEvents: 'none' } } }}>
      <InputBase
        fullWidth
        autoFocus={params.hasFocus}
        type={type}
        value={params.value ?? ''}
        error={Boolean(message)}
        onChange={(event) => void apiRef.current.setEditCellValue({ id: params.id, field: params.field, value: event.target.value })}
        inputProps={{ name: params.field, inputMode, 'data-testid': `planogram-${params.field}`, 'aria-invalid': Boolean(message) }}
        sx={{
          px: 1,
          height: '100%',
          fontSize: 'inherit',
          ...(message ? { boxShadow: (theme) => `inset 0 0 0 2px ${theme.palette.error.main}` } : {}),
        }}
      />
    </Tooltip>
  );
}

/** The product picker of a planogram row. */
export function ProductEditCell({ params, options, loading }: { params: GridRenderEditCellParams; options: Option[]; loading: boolean }) {
  const apiRef = useGridApiContext();
  const message = errorText(params);
  const value = (params.value as string) || '';
  const current: Option | null = value
    ? (options.find((option) => option.id === value) ?? { id: value, name: (params.row as { product_name?: string }).product_name || value })
    : null;
  return (
    <Tooltip open={Boolean(message)} title={<span data-testid="planogram-error">{message}</span>} placement="bottom-start" arrow disableInteractive slotProps={{ popper: { sx: { pointerEvents: 'none' } } }}>
      <Autocomplete
        fullWidth
        size="small"
        options={options}
        value={current}
        loading={loading}
        getOptionLabel={(option) => option.name}
        isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
        onChange={(_event, next) => void apiRef.current.setEditCellValue({ id: params.id, field: params.field, value: next?.id ?? '' })}
        renderInput={(input) => (
          <TextField
            {...input}
            variant="standard"
            error={Boolean(message)}
            slotProps={{
              ...input.slotProps,
              htmlInput: { ...input.slotProps.htmlInput, 'data-testid': 'planogram-product', name: 'product_id' },
              input: { ...input.slotProps.input, disableUnderline: !message },
            }}
          />
        )}
        sx={{ px: 1 }}
      />
    </Tooltip>
  );
}
