import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { useAuth } from '../../../auth/context';
import { Page } from '../../../components/page';
import { RetryAlert } from '../../../components/retry-alert';
import { useDashboard } from '../api/dashboard';
import { AttentionList } from '../components/attention-list';
import { MonthSpan, TodaySpan } from '../components/sales-span';
import { TopList } from '../components/top-list';
import { dashboardLinks } from '../dashboard-logic';

// The charts library is large: it loads with the trend charts, after the figures.
const TrendCharts = lazy(() => import('../components/trend-charts'));
const TREND_HEIGHT = 360;

function Welcome() {
  const { t } = useTranslation();
  const { user } = useAuth();
  return (
    <Card
      sx={{
        background: (theme) =>
          `linear-gradient(135deg, ${alpha(theme.palette.primary.light, 0.2)}, ${alpha(theme.palette.primary.main, 0.2)})`,
      }}
    >
      <CardContent sx={{ p: { xs: 3, md: 4 } }}>
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
  );
}

/**
 * The dashboard: today's and this month's sales, the trend of the last 30 days and of the month
 * against the month before, the month's best products and machines, and the machines needing
 * attention. Every figure leads to the report behind it; a part the user may not
 * see (null in the reply) is left out.
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  const dashboard = useDashboard();
  const data = dashboard.data;
  // While loading, every part shows its skeleton; once loaded, only the parts the reply carries.
  const shows = (part: keyof NonNullable<typeof data>) => dashboard.isPending || (data?.[part] ?? null) !== null;
  return (
    <Page title={t('nav.dashboard')}>
      <Stack spacing={3}>
        <Welcome />
        {dashboard.isError ? (
          <RetryAlert testId="dashboard-error" onRetry={() => void dashboard.refetch()}>
            {t('dashboard.loadFailed')}
          </RetryAlert>
        ) : null}
        {!dashboard.isError ? (
          <>
            {shows('today') ? <TodaySpan today={data?.today ?? undefined} /> : null}
            {shows('month') ? <MonthSpan month={data?.month ?? undefined} /> : null}
            {shows('trend') ? (
              data?.trend ? (
                <Suspense fallback={<Skeleton variant="rounded" height={TREND_HEIGHT} />}>
                  <TrendCharts trend={data.trend} until={data.today?.until} />
                </Suspense>
              ) : (
                <Skeleton variant="rounded" height={TREND_HEIGHT} data-testid="dashboard-trend-loading" />
              )
            ) : null}
            {shows('top_products') || shows('top_machines') ? (
              <Grid container spacing={3}>
                {shows('top_products') ? (
                  <Grid size={{ xs: 12, md: 6 }}>
                    <TopList title="dashboard.topProducts" rows={data?.top_products ?? undefined} href={dashboardLinks.topProducts} testId="dashboard-top-products" />
                  </Grid>
                ) : null}
                {shows('top_machines') ? (
                  <Grid size={{ xs: 12, md: 6 }}>
                    <TopList title="dashboard.topMachines" rows={data?.top_machines ?? undefined} href={dashboardLinks.topMachines} testId="dashboard-top-machines" />
                  </Grid>
                ) : null}
              </Grid>
            ) : null}
            {shows('attention') ? <AttentionList machines={data?.attention ?? undefined} /> : null}
          </>
        ) : null}
      </Stack>
    </Page>
  );
}
