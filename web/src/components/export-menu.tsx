import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import type { ExportOutcome } from '../api/download';
import { trackExportJob } from './export-jobs';
import { toast } from './snackbar';

export type ExportFormat = 'csv' | 'xlsx';

interface ExportMenuProps {
  /** Asks for the file (`requestExport`): saved at once (200), or a job to follow (202). */
  onExport: (format: ExportFormat) => Promise<ExportOutcome | void>;
  testId: string;
  disabled?: boolean;
}

/**
 * The Export button and its CSV / Excel menu. A small file is saved at once; a large one is
 * queued by the server and followed in a progress snackbar until it downloads (`export-jobs`).
 */
export function ExportMenu({ onExport, testId, disabled }: ExportMenuProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [exporting, setExporting] = useState(false);

  const run = async (format: ExportFormat) => {
    setAnchor(null);
    setExporting(true);
    try {
      const outcome = await onExport(format);
      if (outcome?.kind === 'queued') trackExportJob(outcome.job, outcome.reply);
    } catch {
      toast.error(t('errors.unexpected'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <Button
        color="inherit"
        variant="outlined"
        startIcon={<DownloadIcon />}
        loading={exporting}
        disabled={disabled}
        onClick={(event) => setAnchor(event.currentTarget)}
        data-testid={testId}
      >
        {t('common.export')}
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => void run('csv')}>{t('common.exportCsv')}</MenuItem>
        <MenuItem onClick={() => void run('xlsx')}>{t('common.exportXlsx')}</MenuItem>
      </Menu>
    </>
  );
}
