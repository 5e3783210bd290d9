import { useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import FileIcon from '@mui/icons-material/AttachFileOutlined';
import { isApiError } from '../../../api/client';
import { fieldLimits } from '../../../api/limits';
import type { Machine } from '../../../api/types';
import { fieldMessages } from '../../../components/server-errors';
import { replyMessage } from '../../../components/server-list/server-list';
import { toast } from '../../../components/snackbar';
import { useUploadAudit } from '../api/audits';

/** The largest file the server takes, in bytes (the document's `AuditUpload.content` limit, 512 KiB). */
const MAX_BYTES = fieldLimits('AuditUpload', 'content').maxLength ?? 512 * 1024;

/** What the file input accepts: audit files are text, usually `.dex` or `.txt`. */
const ACCEPT = '.dex,.txt,.eva,.dat,text/plain,text/*';

interface Chosen {
  name: string;
  content: string;
}

/** Uploads an EVA-DTS audit file read from the machine by hand (read here as text). */
export function UploadAuditDialog({ machine, onClose }: { machine: Machine; onClose: () => void }) {
  const { t } = useTranslation();
  const upload = useUploadAudit(machine.id);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  /** A problem with the file: ours (too large, unreadable) or the server's `errors.content`. */
  const [problem, setProblem] = useState<string | null>(null);
  /** A failure no field takes. */
  const [failure, setFailure] = useState<string | null>(null);
  const [takenInBefore, setTakenInBefore] = useState(false);
  const saving = upload.isPending;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file chosen again must fire `change` again.
    event.target.value = '';
    setProblem(null);
    setFailure(null);
    setTakenInBefore(false);
    if (!file) return;
    setChosen(null);
    if (file.size > MAX_BYTES) {
      setProblem(t('audits.fileTooLarge', { count: Math.floor(MAX_BYTES / 1024) }));
      return;
    }
    try {
      const content = await file.text();
      if (!content.trim()) {
        setProblem(t('audits.fileEmpty'));
        return;
      }
      setChosen({ name: file.name, content });
    } catch {
      setProblem(t('audits.fileUnreadable'));
    }
  };

  const submit = async () => {
    if (!chosen) return;
    setProblem(null);
    setFailure(null);
    setTakenInBefore(false);
    try {
      const reply = await upload.mutateAsync(chosen.content);
      if (!reply.data || reply.data.length === 0) {
        setTakenInBefore(true);
        return;
      }
      toast.success(replyMessage(reply) ?? t('success.auditUploaded'));
      onClose();
    } catch (error) {
      const fields = fieldMessages(error);
      const fieldText = fields.content ?? fields.machine_id;
      if (fieldText) setProblem(fieldText);
      else setFailure(isApiError(error) && error.status !== 0 ? error.message : t('errors.auditUpload'));
      toast.error(t('errors.auditUpload'));
    }
  };

  return (
    <Dialog open onClose={saving ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('audits.uploadTitle')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="audit-upload-dialog">
        <DialogContentText>{t('audits.uploadText')}</DialogContentText>
        {failure ? (
          <Alert severity="error" data-testid="audit-upload-failure">
            {failure}
          </Alert>
        ) : null}
        <Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            <Button component="label" variant="outlined" startIcon={<FileIcon />} disabled={saving}>
              {t('audits.chooseFile')}
              <input
                type="file"
                accept={ACCEPT}
                hidden
                onChange={(event) => void choose(event)}
                data-testid="audit-file-input"
              />
            </Button>
            <Typography variant="body2" sx={{ color: chosen ? 'text.primary' : 'text.secondary', wordBreak: 'break-all' }} data-testid="audit-file-name">
              {chosen?.name ?? t('audits.noFile')}
            </Typography>
          </Box>
          {problem ? (
            <FormHelperText error data-testid="audit-upload-error">
              {problem}
            </FormHelperText>
          ) : null}
        </Box>
        {takenInBefore ? (
          <Alert severity="info" data-testid="audit-upload-duplicate">
            {t('audits.takenInBefore')}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button variant="outlined" color="inherit" onClick={onClose} disabled={saving}>
          {takenInBefore ? t('audits.close') : t('common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void submit()} loading={saving} disabled={!chosen || takenInBefore} data-testid="audit-upload-submit">
          {t('audits.send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
