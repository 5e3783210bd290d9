import { useFormState } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';

interface FormFooterProps {
  /** Where Cancel goes back to; without it there is no Cancel. */
  cancelTo?: string;
  submitLabel: string;
  /** The submit button's `data-testid`. */
  testId: string;
  disabled?: boolean;
}

/** The buttons under a form screen's cards: Cancel (back to the list) and submit, busy while saving. */
export function FormFooter({ cancelTo, submitLabel, testId, disabled }: FormFooterProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { isSubmitting } = useFormState();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5 }}>
      {cancelTo ? (
        <Button variant="outlined" color="inherit" onClick={() => navigate(cancelTo)}>
          {t('common.cancel')}
        </Button>
      ) : null}
      <Button type="submit" variant="contained" loading={isSubmitting} disabled={disabled} data-testid={testId}>
        {submitLabel}
      </Button>
    </Box>
  );
}
