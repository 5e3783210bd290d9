import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { useAuth } from '../../auth/context';
import { Page } from '../../components/page';
import { isSupportedLanguage } from '../../locales/i18n';

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Card sx={{ height: 1 }}>
      <CardContent>
        <Typography variant="overline" sx={{ color: 'text.secondary' }}>
          {label}
        </Typography>
        <Typography variant="h6">{value}</Typography>
      </CardContent>
    </Card>
  );
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const modules = user?.module.access_all_modules ? t('dashboard.allModules') : String(user?.module.modules.length ?? 0);
  const language = user && isSupportedLanguage(user.language) ? t(`languages.${user.language}`) : '';
  return (
    <Page title={t('nav.dashboard')}>
      <Card
        sx={{
          mb: 3,
          background: (theme) =>
            `linear-gradient(135deg, ${alpha(theme.palette.primary.light, 0.2)}, ${alpha(theme.palette.primary.main, 0.2)})`,
        }}
      >
        <CardContent sx={{ p: { xs: 3, md: 5 } }}>
          <Typography variant="h4" component="h1" gutterBottom data-testid="dashboard-welcome">
            {t('dashboard.welcome', { name: user?.displayName || user?.name || '' })}
          </Typography>
          <Typography sx={{ color: 'text.secondary', maxWidth: 560 }}>{t('dashboard.intro')}</Typography>
          {user?.positions?.length ? (
            <Box sx={{ display: 'flex', gap: 1, mt: 2, flexWrap: 'wrap' }}>
              {user.positions.map((position) => (
                <Chip key={position} label={position} size="small" />
              ))}
            </Box>
          ) : null}
        </CardContent>
      </Card>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <Fact label={t('dashboard.role')} value={user?.role_name || t('common.none')} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <Fact label={t('dashboard.modules')} value={modules} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <Fact
            label={t('dashboard.machines')}
            value={user?.access_all_machines ? t('dashboard.allMachines') : t('dashboard.scopedMachines')}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <Fact label={t('dashboard.language')} value={language} />
        </Grid>
      </Grid>
    </Page>
  );
}
