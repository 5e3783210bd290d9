import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';

/** A failed load: what failed, and a button to ask again. */
export function RetryAlert({ onRetry, testId, sx, children }: { onRetry: () => void; testId?: string; sx?: SxProps<Theme>; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Alert
      severity="error"
      sx={sx}
      data-testid={testId}
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    >
      {children}
    </Alert>
  );
}
