import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';

export interface Crumb {
  name: string;
  href?: string;
}

interface Props {
  heading: string;
  links: Crumb[];
  action?: ReactNode;
}

/** The screen heading with its breadcrumb trail and an optional action on the right. */
export function CustomBreadcrumbs({ heading, links, action }: Props) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 2, mb: { xs: 3, md: 5 } }}>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Typography variant="h4" component="h1" gutterBottom>
          {heading}
        </Typography>
        <Breadcrumbs separator="•" aria-label="breadcrumb">
          {links.map((link, index) =>
            link.href && index < links.length - 1 ? (
              <Link key={link.name} component={RouterLink} to={link.href} color="text.primary" variant="body2" underline="hover">
                {link.name}
              </Link>
            ) : (
              <Typography key={link.name} variant="body2" sx={{ color: 'text.secondary' }}>
                {link.name}
              </Typography>
            ),
          )}
        </Breadcrumbs>
      </Box>
      {/* On a phone the actions take a line of their own, and wrap within it. */}
      {action ? <Box sx={{ flexShrink: 0, maxWidth: '100%', display: 'flex', flexWrap: 'wrap', gap: 1 }}>{action}</Box> : null}
    </Box>
  );
}
