import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import CopyIcon from '@mui/icons-material/ContentCopy';
import { toast } from '../../../components/snackbar';

interface Props {
  secret: string;
  machineName: string;
  onClose: () => void;
}

/** Shows a machine's webhook secret the one time the server sends it. */
export function SecretDialog({ secret, machineName, onClose }: Props) {
  const { t } = useTranslation();

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      toast.success(t('success.copied'));
    } catch {
      toast.error(t('errors.copy'));
    }
  };

  return (
    <Dialog open fullWidth maxWidth="sm" data-testid="secret-dialog" aria-labelledby="secret-dialog-title">
      <DialogTitle id="secret-dialog-title">
        {t('machines.secretTitle')}: {machineName}
      </DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <DialogContentText>{t('machines.secretText')}</DialogContentText>
        <TextField
          value={secret}
          fullWidth
          label={t('machines.secretTitle')}
          slotProps={{
            htmlInput: { readOnly: true, 'data-testid': 'secret-value', style: { fontFamily: 'monospace' } },
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <Tooltip title={t('machines.copy')}>
                    <IconButton aria-label={t('machines.copy')} onClick={() => void copy()} edge="end">
                      <CopyIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </InputAdornment>
              ),
            },
          }}
        />
        <Alert severity="warning">{t('machines.secretWarning')}</Alert>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose} data-testid="secret-close">
          {t('machines.secretDone')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
