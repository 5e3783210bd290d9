import { useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import FileIcon from '@mui/icons-material/AttachFileOutlined';
import UploadIcon from '@mui/icons-material/UploadFileOutlined';
import { useHistoryMappings } from '../api/imports';
import { ACCEPT, formatMegabytes, NAYAX_READING } from '../import-logic';
import type { Uploader } from './import-upload';

/**
 * A new import: the file (CSV or XLSX, any size) and how to read it — Nayax Core's export or a
 * saved mapping —, then "Upload and preview".
 */
export function NewImport({ uploader }: { uploader: Uploader }) {
  const { t, i18n } = useTranslation();
  const mappings = useHistoryMappings();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [reading, setReading] = useState(NAYAX_READING);
  const list = mappings.data ?? [];
  // A mapping deleted meanwhile is no reading any more.
  const chosen = reading === NAYAX_READING || list.some((mapping) => mapping.id === reading) ? reading : NAYAX_READING;
  const busy = uploader.busy;

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    // The same file chosen again must fire `change` again.
    event.target.value = '';
    setProblem(null);
    if (!picked) return;
    if (picked.size === 0) {
      setFile(null);
      setProblem(t('dataSources.imports.fileEmpty'));
      return;
    }
    setFile(picked);
  };

  const start = async () => {
    if (!file) return;
    if (await uploader.run(file, { mappingId: chosen })) setFile(null);
  };

  return (
    <Card component="section" aria-labelledby="new-import-title" data-testid="new-import">
      <CardHeader title={t('dataSources.imports.newTitle')} slotProps={{ title: { component: 'h2', variant: 'h6', id: 'new-import-title' } }} />
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2.5, pt: 0 }}>
        <Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            <Button component="label" variant="outlined" startIcon={<FileIcon />} disabled={busy}>
              {t('dataSources.imports.chooseFile')}
              <input type="file" accept={ACCEPT} hidden onChange={choose} data-testid="import-file-input" />
            </Button>
            <Typography variant="body2" sx={{ color: file ? 'text.primary' : 'text.secondary', overflowWrap: 'anywhere', minWidth: 0 }} data-testid="import-file-name">
              {file ? `${file.name} (${formatMegabytes(file.size, i18n.language)})` : t('dataSources.imports.noFile')}
            </Typography>
          </Box>
          {problem ? (
            <FormHelperText error data-testid="import-file-problem">
              {problem}
            </FormHelperText>
          ) : (
            <FormHelperText>{t('dataSources.imports.fileHint')}</FormHelperText>
          )}
        </Box>
        <TextField
          select
          label={t('dataSources.imports.reading')}
          value={chosen}
          onChange={(event) => setReading(event.target.value)}
          disabled={busy}
          helperText={t('dataSources.imports.readingHint')}
          fullWidth
          sx={{ maxWidth: { sm: 480 } }}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'import-reading' } as object } }}
        >
          <MenuItem value={NAYAX_READING}>{t('dataSources.imports.nayax')}</MenuItem>
          {list.map((mapping) => (
            <MenuItem key={mapping.id} value={mapping.id}>
              {mapping.name}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button variant="contained" startIcon={<UploadIcon />} onClick={() => void start()} disabled={!file || busy} loading={busy} data-testid="import-start">
            {t('dataSources.imports.start')}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}
