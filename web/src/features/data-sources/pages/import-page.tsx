import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { isApiError } from '../../../api/client';
import type { HistoryImport } from '../../../api/types';
import { LoadingScreen } from '../../../components/loading-screen';
import { RetryAlert } from '../../../components/retry-alert';
import { ScreenHeader } from '../../../components/screen-header';
import { useHistoryImports } from '../api/imports';
import { ImportDetail } from '../components/import-detail';
import { ImportsList } from '../components/import-list';
import { ImportMappings } from '../components/import-mappings';
import { NewImport } from '../components/import-new';
import { UploadStatus, useUploader } from '../components/import-upload';

/** The import open on the screen, in the address (`?import=<id>`): a reload or a link finds it again. */
const OPEN = 'import';

/**
 * /settings/data-sources/import (issue 49): a sales history from export files. A new import (the
 * file, sent in parts of 5 MiB, and its reading: Nayax Core's export or a saved mapping), the one
 * open (its progress, its preview, "Book" and the result), the past imports, and the saved
 * mappings. For `settings.data_sources.import`; the server also refuses a user who does not see
 * every machine, which the screen says.
 */
export default function ImportPage() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const imports = useHistoryImports();
  const openId = searchParams.get(OPEN);
  const open = (id: string | null) => setSearchParams(id ? { [OPEN]: id } : {}, { replace: true });
  const uploader = useUploader((item: HistoryImport) => open(item.id));

  const refused = imports.isError && isApiError(imports.error) && imports.error.status === 403;
  let body;
  if (!imports.data && imports.isPending) body = <LoadingScreen inline />;
  else if (refused) {
    body = (
      <RetryAlert testId="imports-refused" onRetry={() => void imports.refetch()}>
        {t('dataSources.imports.adminOnly')}
      </RetryAlert>
    );
  } else {
    body = (
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3, minWidth: 0 }}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('dataSources.imports.intro')}
        </Typography>
        <NewImport uploader={uploader} />
        <UploadStatus uploader={uploader} />
        {openId ? <ImportDetail key={openId} id={openId} onClose={() => open(null)} uploader={uploader} /> : null}
        <ImportsList onOpen={(item) => open(item.id)} onDeleted={(id) => (id === openId ? open(null) : undefined)} />
        <ImportMappings />
      </Box>
    );
  }

  return (
    <>
      <ScreenHeader />
      {body}
    </>
  );
}
