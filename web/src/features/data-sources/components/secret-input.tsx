import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { TextInput } from '../../../components/form';
import { CLEAR, type Secret, type SourceValues } from '../data-sources-logic';

interface Props {
  name: Secret;
  label: string;
  /** A secret is stored on the source read: the field starts empty all the same. */
  stored: boolean;
  testId: string;
}

/**
 * A write-only secret: a password field that is always empty at first. With a secret stored, it
 * says so ("leave empty to keep"), and "Clear" empties it on save; what is typed replaces it.
 */
export function SecretInput({ name, label, stored, testId }: Props) {
  const { t } = useTranslation();
  const { setValue } = useFormContext<SourceValues>();
  const clearName = CLEAR[name];
  const clearing = useWatch<SourceValues, typeof clearName>({ name: clearName });
  const hint = stored ? (clearing ? t('dataSources.willClear') : t('dataSources.stored')) : undefined;

  const clear = () => {
    setValue(name, '', { shouldDirty: true, shouldValidate: false });
    setValue(clearName, true, { shouldDirty: true });
  };
  const keep = () => setValue(clearName, false, { shouldDirty: true });

  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
      <TextInput
        name={name}
        secret
        // Never the browser's saved sign-in password.
        autoComplete="new-password"
        label={label}
        disabled={clearing}
        helperText={hint}
        slotProps={{ htmlInput: { 'data-testid': testId, spellCheck: false } }}
      />
      {stored ? (
        <Button
          variant="outlined"
          color={clearing ? 'inherit' : 'error'}
          onClick={clearing ? keep : clear}
          aria-label={`${clearing ? t('dataSources.keep') : t('dataSources.clear')}: ${label}`}
          data-testid={`${testId}-${clearing ? 'keep' : 'clear'}`}
          sx={{ mt: 1.25, flexShrink: 0 }}
        >
          {clearing ? t('dataSources.keep') : t('dataSources.clear')}
        </Button>
      ) : null}
    </Box>
  );
}
