import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import { StatusView } from '../../components/error-views';
import { Page } from '../../components/page';
import { Logo } from '../../layouts/logo';
import { paths } from '../paths';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('errors.notFoundTitle')}>
      <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
        <Box sx={{ p: 3 }}>
          <Logo />
        </Box>
        <Box sx={{ flexGrow: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <StatusView status={404} home={paths.root} />
        </Box>
      </Box>
    </Page>
  );
}
