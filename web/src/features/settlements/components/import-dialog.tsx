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
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import FileIcon from '@mui/icons-material/AttachFileOutlined';
import { isApiError } from '../../../api/client';
import type { ImportReply } from '../../../api/types';
import { formatDateTime } from '../../../components/format';
import { useImportFile, useMappings } from '../api/settlements';
import { ACCEPT, fileToBase64, importProblems, MAX_FILE_BYTES, type ImportProblem } from '../settlements-logic';

interface Chosen {
  name: string;
  content: string;
}

/** Why nothing was imported: the server's list of bad cells and missing columns, or its message. */
export function ImportProblems({ problems, message }: { problems: ImportProblem[]; message: string | null }) {
  const { t } = useTranslation();
  if (problems.length === 0) {
    return (
      <Alert severity="error" data-testid="settlement-import-failure">
        {t('settlements.rejectedFailed', { message: message ?? t('settlements.importFailed') })}
      </Alert>
    );
  }
  return (
    <Alert severity="error" data-testid="settlement-import-problems">
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('settlements.rejected', { count: problems.length })}
      </Typography>
      <Box component="ul" aria-label={t('settlements.problems')} sx={{ m: 0, pl: 2.5, maxHeight: 240, overflowY: 'auto' }}>
        {problems.map((problem) => (
          <li key={problem.key} data-testid="settlement-import-problem">
            <Typography variant="body2">{problem.message}</Typography>
          </li>
        ))}
      </Box>
    </Alert>
  );
}

/** What an accepted file did: its rows and payouts, or that it had been imported before. */
function ImportResult({ reply }: { reply: ImportReply }) {
  const { t, i18n } = useTranslation();
  const { import: done, replayed } = reply.data;
  if (replayed) {
    return (
      <Alert severity="info" data-testid="settlement-import-replayed">
        {t('settlements.replayed', { file: done.file_name, date: formatDateTime(done.imported_at, i18n.language) })}
      </Alert>
    );
  }
  return (
    <Alert severity="success" data-testid="settlement-import-done">
      <Typography variant="body2">{t('settlements.imported', { rows: done.rows, file: done.file_name })}</Typography>
      {done.payouts.length > 0 ? <Typography variant="body2">{t('settlements.importedPayouts', { payouts: done.payouts.join(', ') })}</Typography> : null}
      {done.supersedes.length > 0 ? <Typography variant="body2">{t('settlements.importedCorrects')}</Typography> : null}
    </Alert>
  );
}

/** Imports a settlement file (CSV or XLSX, read here as base64) through a processor's mapping. */
export function ImportDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const mappings = useMappings(true);
  const upload = useImportFile();
  const [mappingId, setMappingId] = useState('');
  const [chosen, setChosen] = useState<Chosen | null>(null);
  /** A problem with the file found here (too large, empty, unreadable). */
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ problems: ImportProblem[]; message: string | null } | null>(null);
  const [reply, setReply] = useState<ImportReply | null>(null);
  const saving = upload.isPending;
  const list = mappings.data ?? [];
  const selected = mappingId || (list.length === 1 ? list[0].id : '');

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file chosen again (once corrected) must fire `change` again.
    event.target.value = '';
    setFileProblem(null);
    setFailure(null);
    setReply(null);
    if (!file) return;
    setChosen(null);
    if (file.size > MAX_FILE_BYTES) return setFileProblem(t('settlements.fileTooLarge', { count: MAX_FILE_BYTES / 1024 / 1024 }));
    if (file.size === 0) return setFileProblem(t('settlements.fileEmpty'));
    try {
      setChosen({ name: file.name, content: await fileToBase64(file) });
    } catch {
      setFileProblem(t('settlements.fileUnreadable'));
    }
  };

  const submit = async () => {
    if (!chosen || !selected) return;
    setFailure(null);
    setReply(null);
    try {
      setReply(await upload.mutateAsync({ mapping_id: selected, file_name: chosen.name, content_base64: chosen.content }));
    } catch (error) {
      setFailure({ problems: importProblems(error), message: isApiError(error) && error.status !== 0 ? error.message : null });
    }
  };

  return (
    <Dialog open onClose={saving ? undefined : onClose} fullWidth maxWidth="md">
      <DialogTitle>{t('settlements.importTitle')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }} data-testid="settlement-import-dialog">
        <DialogContentText>{t('settlements.importText')}</DialogContentText>
        {mappings.isSuccess && list.length === 0 ? (
          <Alert severity="warning" data-testid="settlement-import-no-mappings">
            {t('settlements.noMappings')}
          </Alert>
        ) : null}
        <TextField
          select
          label={t('settlements.mapping')}
          value={selected}
          onChange={(event) => {
            setMappingId(event.target.value);
            setFailure(null);
            setReply(null);
          }}
          disabled={saving || list.length === 0}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'settlement-import-mapping' } as object } }}
        >
          {list.map((mapping) => (
            <MenuItem key={mapping.id} value={mapping.id}>
              {mapping.name}
            </MenuItem>
          ))}
        </TextField>
        <Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            <Button component="label" variant="outlined" startIcon={<FileIcon />} disabled={saving}>
              {t('settlements.chooseFile')}
              <input type="file" accept={ACCEPT} hidden onChange={(event) => void choose(event)} data-testid="settlement-file-input" />
            </Button>
            <Typography variant="body2" sx={{ color: chosen ? 'text.primary' : 'text.secondary', wordBreak: 'break-all' }} data-testid="settlement-file-name">
              {chosen?.name ?? t('settlements.noFile')}
            </Typography>
          </Box>
          {fileProblem ? (
            <FormHelperText error data-testid="settlement-file-problem">
              {fileProblem}
            </FormHelperText>
          ) : null}
        </Box>
        {failure ? <ImportProblems problems={failure.problems} message={failure.message} /> : null}
        {reply ? <ImportResult reply={reply} /> : null}
      </DialogContent>
      <DialogActions>
        <Button variant="outlined" color="inherit" onClick={onClose} disabled={saving}>
          {reply ? t('common.close') : t('common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void submit()} loading={saving} disabled={!chosen || !selected || reply !== null} data-testid="settlement-import-submit">
          {t('settlements.import')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
