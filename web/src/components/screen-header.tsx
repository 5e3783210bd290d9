import type { ReactNode } from 'react';
import { useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { RouteHandle } from '../routes/handle';
import { paths } from '../routes/paths';
import { CustomBreadcrumbs } from './breadcrumbs';
import { Page } from './page';

/** Title and breadcrumbs of the current protected route, read from its route handle. */
export function ScreenHeader({ action, title }: { action?: ReactNode; title?: string }) {
  const { t } = useTranslation();
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;
  const heading = title ?? (handle ? t(handle.title) : '');
  const links = [
    { name: t('nav.dashboard'), href: paths.dashboard.root },
    ...(handle?.crumbs ?? []).map((crumb) => ({ name: t(crumb.title), href: crumb.href })),
    { name: heading },
  ];
  return (
    <Page title={heading}>
      <CustomBreadcrumbs heading={heading} links={links} action={action} />
    </Page>
  );
}
