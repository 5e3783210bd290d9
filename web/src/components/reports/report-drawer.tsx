import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';

interface ReportDrawerProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  subtitle?: ReactNode;
  /** The close button's label. */
  closeLabel: string;
  testId: string;
  /** Its width from a tablet up (a phone: the whole screen). */
  width?: number;
  children: ReactNode;
}

/** A report's detail on the right (a machine's stock, a refill visit), over the report it comes from. */
export function ReportDrawer({ open, onClose, title, subtitle, closeLabel, testId, width = 720, children }: ReportDrawerProps) {
  return (
    <Drawer anchor="right" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: { xs: 1, sm: width }, maxWidth: 1 } } }}>
      {open ? (
        <Stack spacing={2} sx={{ p: { xs: 2, md: 3 } }} data-testid={testId}>
          <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
            <div>
              <Typography variant="h6" component="h2">
                {title}
              </Typography>
              {subtitle ? (
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {subtitle}
                </Typography>
              ) : null}
            </div>
            <IconButton aria-label={closeLabel} onClick={onClose}>
              <CloseIcon />
            </IconButton>
          </Box>
          {children}
        </Stack>
      ) : null}
    </Drawer>
  );
}
