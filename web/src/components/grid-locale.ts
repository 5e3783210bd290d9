import { useTranslation } from 'react-i18next';
import { enUS, frFR, itIT } from '@mui/x-data-grid/locales';
import type { GridLocaleText } from '@mui/x-data-grid';

const GRID_LOCALES = { en: enUS, fr: frFR, it: itIT } as const;

/** The data grid's own texts in the UI language. */
export function useGridLocaleText(): Partial<GridLocaleText> {
  const { i18n } = useTranslation();
  const locale = GRID_LOCALES[i18n.language as keyof typeof GRID_LOCALES] ?? enUS;
  return locale.components.MuiDataGrid.defaultProps.localeText;
}
