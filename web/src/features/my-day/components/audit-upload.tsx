import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import UploadIcon from '@mui/icons-material/UploadFileOutlined';
import { toast } from '../../../components/snackbar';
import { useOutbox } from '../use-outbox';
import { Section, TOUCH } from './parts';

/** The server takes an audit file of at most 512 KiB. */
const MAX_BYTES = 512 * 1024;
export const AUDIT_PATH = '/api/machines/eva-dts/read/';

/** An EVA-DTS file read from the machine, queued like a booking (the server takes the same file once). */
export function AuditUpload({ routeId, machineId, machineName }: { routeId: string; machineId: string; machineName: string }) {
  const { t } = useTranslation();
  const { outbox } = useOutbox();
  const input = useRef<HTMLInputElement>(null);
  const [tooLarge, setTooLarge] = useState(false);
  const chosen = async (file: File | undefined) => {
    if (!file) return;
    setTooLarge(file.size > MAX_BYTES);
    if (file.size > MAX_BYTES) return;
    const content = await file.text();
    await outbox.add({ kind: 'audit', path: AUDIT_PATH, body: { machine_id: machineId, content }, routeId, machineId, label: machineName });
    void outbox.flush();
    toast.info(t('myDay.auditQueued', { machine: machineName }));
    if (input.current) input.current.value = '';
  };
  return (
    <Section title={t('myDay.auditUpload')} testId="my-audit">
      <Typography sx={{ color: 'text.secondary' }}>{t('myDay.auditHint')}</Typography>
      {tooLarge ? <Alert severity="error">{t('myDay.auditTooLarge')}</Alert> : null}
      <Button component="label" variant="outlined" startIcon={<UploadIcon />} sx={TOUCH}>
        {t('myDay.chooseFile')}
        <input ref={input} type="file" hidden data-testid="audit-file" onChange={(event) => void chosen(event.target.files?.[0])} />
      </Button>
    </Section>
  );
}
