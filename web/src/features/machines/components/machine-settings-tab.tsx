import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Typography from '@mui/material/Typography';
import KeyIcon from '@mui/icons-material/KeyOutlined';
import type { Machine } from '../../../api/types';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../components/snackbar';
import { useRotateSecret } from '../api/machines';
import { MachineForm } from './machine-form';
import { valuesFromMachine } from './machine-form-values';
import { SecretDialog } from './secret-dialog';

/** The machine's settings form and the webhook secret's rotation. */
export function MachineSettingsTab({ machine }: { machine: Machine }) {
  const { t } = useTranslation();
  const rotate = useRotateSecret(machine.id);
  const [confirm, setConfirm] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);

  const runRotate = async () => {
    try {
      const rotated = await rotate.mutateAsync();
      toast.success(t('success.secretRotated'));
      setSecret(rotated.webhook_secret ?? null);
    } catch {
      toast.error(t('errors.secretRotate'));
    } finally {
      setConfirm(false);
    }
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <MachineForm initial={valuesFromMachine(machine)} machine={machine} />
      <Card>
        <CardHeader title={t('machines.secretTitle')} />
        <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', justifyContent: 'space-between' }}>
          <Typography variant="body2" sx={{ color: 'text.secondary', maxWidth: 560 }}>
            {t('machines.rotateHint')}
          </Typography>
          <Button variant="outlined" color="warning" startIcon={<KeyIcon />} onClick={() => setConfirm(true)} data-testid="rotate-secret">
            {t('machines.rotateSecret')}
          </Button>
        </CardContent>
      </Card>
      <ConfirmDialog
        open={confirm}
        title={t('machines.rotateTitle')}
        content={t('machines.rotateConfirm')}
        confirmLabel={t('machines.rotate')}
        loading={rotate.isPending}
        onConfirm={() => void runRotate()}
        onClose={() => setConfirm(false)}
      />
      {secret ? <SecretDialog secret={secret} machineName={machine.name} onClose={() => setSecret(null)} /> : null}
    </Box>
  );
}
