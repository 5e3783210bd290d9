import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useGeneratorModules } from './definition-api';
import { isModule } from './definition-logic';

/**
 * A module's name: the server's label in the user's language (the generator's modules, or
 * `served` when the screen has its own list, e.g. the scheduler's), else ours.
 */
export function useModuleLabel(served?: { key: string; label: string }[], own = false) {
  const { t } = useTranslation();
  const modules = useGeneratorModules(!own);
  const options = own ? served : modules.data;
  return useCallback(
    (module: string) => options?.find((option) => option.key === module)?.label ?? (isModule(module) ? t(`reportGenerator.modules.${module}`) : module),
    [options, t],
  );
}
