import { useTranslation } from 'react-i18next';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { isSupportedLanguage, LANGUAGES } from '../locales/i18n';

/** Language choice before sign-in: local only, the server learns it after sign-in. */
export function GuestLanguageSwitcher() {
  const { t, i18n } = useTranslation();
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={i18n.language}
      aria-label={t('header.language')}
      onChange={(_event, value: unknown) => {
        if (isSupportedLanguage(value)) void i18n.changeLanguage(value);
      }}
    >
      {LANGUAGES.map((language) => (
        <ToggleButton key={language.code} value={language.code} lang={language.code} aria-label={`${language.short} (${language.label})`} sx={{ px: 1.25, py: 0.25, fontWeight: 700 }}>
          {language.short}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
