import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { MessageView } from '../../components/error-views';
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
          <MessageView
            code="404"
            testId="not-found"
            title={t('errors.notFoundTitle')}
            text={t('errors.notFoundText')}
            action={
              <Button component={RouterLink} to={paths.root} variant="contained" size="large">
                {t('errors.goHome')}
              </Button>
            }
          />
        </Box>
      </Box>
    </Page>
  );
}
