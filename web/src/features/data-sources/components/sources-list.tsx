import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import { isApiError } from '../../../api/client';
import type { DataSource } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { deletionFailure } from '../../../components/fields';
import { LoadingScreen } from '../../../components/loading-screen';
import { RetryAlert } from '../../../components/retry-alert';
import { toast } from '../../../components/snackbar';
import { useDataSources, useDeleteDataSource } from '../api/data-sources';
import { feedsOf, HEALTH_COLOR, healthState } from '../data-sources-logic';
import { SourceHealth } from './source-health';

/** One source: its name, kind and region, its state and feeds, its health; edit and delete. */
function SourceCard({ source, onEdit, onDelete }: { source: DataSource; onEdit?: () => void; onDelete?: () => void }) {
  const { t } = useTranslation();
  const state = healthState(source);
  const titleId = `data-source-${source.id}`;
  const actions = (
    <Box sx={{ display: 'flex' }}>
      {onEdit ? (
        <Tooltip title={t('common.edit')}>
          <IconButton aria-label={`${t('common.edit')}: ${source.name}`} onClick={onEdit} data-testid="source-edit">
            <EditIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
      {onDelete ? (
        <Tooltip title={t('common.delete')}>
          <IconButton aria-label={`${t('common.delete')}: ${source.name}`} color="error" onClick={onDelete} data-testid="source-delete">
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
    </Box>
  );
  return (
    <Card component="article" aria-labelledby={titleId} data-testid="data-source" sx={{ minWidth: 0 }}>
      <CardHeader
        title={source.name}
        subheader={`${t(`dataSources.kinds.${source.kind}`)} · ${source.region}`}
        action={actions}
        slotProps={{ title: { component: 'h2', variant: 'h6', id: titleId, sx: { overflowWrap: 'anywhere' } } }}
      />
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: 1 }}>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Chip size="small" color={HEALTH_COLOR[state]} label={t(`dataSources.health.${state}`)} data-testid="source-state" data-state={state} />
          {feedsOf(source).map((feed) => (
            <Chip key={feed} size="small" variant="outlined" label={t(`dataSources.feeds.${feed}`)} data-testid="source-feed" />
          ))}
        </Box>
        <SourceHealth source={source} />
      </CardContent>
    </Card>
  );
}

/** The sources, a card each (two side by side on a wide screen, one on a phone). */
export function SourcesList({ onEdit }: { onEdit: (source: DataSource) => void }) {
  const { t } = useTranslation();
  const can = usePermission();
  const sources = useDataSources();
  const remove = useDeleteDataSource();
  const [deleting, setDeleting] = useState<DataSource | null>(null);

  const runDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(t('dataSources.deleted'));
    } catch (error) {
      toast.error(deletionFailure(error, t('errors.deletion')));
    } finally {
      setDeleting(null);
    }
  };

  if (!sources.data) {
    if (!sources.isError) return <LoadingScreen inline />;
    // The server refuses the sources to whoever does not see every machine.
    const refused = isApiError(sources.error) && sources.error.status === 403;
    return (
      <RetryAlert testId="sources-error" onRetry={() => void sources.refetch()}>
        {refused ? t('dataSources.adminOnly') : t('dataSources.loadFailed')}
      </RetryAlert>
    );
  }

  return (
    <>
      {sources.data.length === 0 ? (
        <Card>
          <Typography sx={{ py: 6, px: 3, textAlign: 'center', color: 'text.secondary' }} data-testid="sources-empty">
            {t('dataSources.noSources')}
          </Typography>
        </Card>
      ) : (
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' } }} data-testid="sources">
          {sources.data.map((source) => (
            <SourceCard
              key={source.id}
              source={source}
              onEdit={can('settings.data_sources.edit') ? () => onEdit(source) : undefined}
              onDelete={can('settings.data_sources.delete') ? () => setDeleting(source) : undefined}
            />
          ))}
        </Box>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('dataSources.deleteTitle')}
        content={t('dataSources.deleteConfirm', { name: deleting?.name ?? '' })}
        confirmLabel={t('common.delete')}
        loading={remove.isPending}
        onConfirm={() => void runDelete()}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
