import type { ReactNode } from 'react';
import Card from '@mui/material/Card';
import Grid, { type GridProps } from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';

export interface Stat {
  key: string;
  label: string;
  value: ReactNode;
  /** A line under the figure. */
  caption?: ReactNode;
  /** The figure's colour (a theme path: `error.main`…). */
  color?: string;
}

interface StatCardsProps {
  stats: Stat[];
  loading: boolean;
  /** `${testId}` on the row, `${testId}-${key}` and `${testId}-${key}-value` on each card. */
  testId: string;
  size?: GridProps['size'];
}

/** A row of figure cards (a report's totals); skeletons while they load. */
export function StatCards({ stats, loading, testId, size = { xs: 12, sm: 6, md: 4, lg: 'grow' } }: StatCardsProps) {
  return (
    <Grid container spacing={2} data-testid={testId}>
      {stats.map((stat) => (
        <Grid key={stat.key} size={size}>
          <Card sx={{ p: 2.5, height: 1 }} data-testid={`${testId}-${stat.key}`}>
            <Typography variant="subtitle2" sx={{ color: 'text.secondary' }}>
              {stat.label}
            </Typography>
            {loading ? (
              <>
                <Skeleton variant="text" sx={{ typography: 'h5' }} />
                <Skeleton variant="text" width="60%" />
              </>
            ) : (
              <>
                <Typography variant="h5" component="p" sx={{ my: 0.5, whiteSpace: 'nowrap', color: stat.color }} data-testid={`${testId}-${stat.key}-value`}>
                  {stat.value}
                </Typography>
                {stat.caption ? (
                  <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }}>
                    {stat.caption}
                  </Typography>
                ) : null}
              </>
            )}
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
