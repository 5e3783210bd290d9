import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';

interface Props {
  open: boolean;
  title: string;
  content: ReactNode;
  confirmLabel: string;
  loading?: boolean;
  /** The confirm button's colour: red for destructive actions (default). */
  confirmColor?: 'error' | 'primary';
  onConfirm: () => void;
  onClose: () => void;
}

export function ConfirmDialog({ open, title, content, confirmLabel, loading, confirmColor = 'error', onConfirm, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>{content}</DialogContent>
      <DialogActions>
        <Button variant="outlined" color="inherit" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" color={confirmColor} onClick={onConfirm} loading={loading} data-testid="confirm-dialog-submit">
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
