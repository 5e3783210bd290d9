import { useCallback, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';

/** Whether a drawer is open, and what closing it does. */
export interface DrawerControl {
  open: boolean;
  onClose: () => void;
}

/** A drawer about one row of a report (a refill line's visit, a machine of the list): open while it has a row. */
export interface RowDrawer<T> extends DrawerControl {
  /** The row shown; none: the drawer is closed. */
  row: T | null;
}

/** A drawer about one row, and how to open it. */
export interface RowDrawerState<T> extends RowDrawer<T> {
  /** Opens the drawer on `row` (or shows it in place of the one open). */
  show: (row: T) => void;
}

/** The state of a drawer about one row: closed at first, open on the row `show` is given, closed again by `onClose`. */
export function useRowDrawer<T>(): RowDrawerState<T> {
  const [row, setRow] = useState<T | null>(null);
  const show = useCallback((next: T) => setRow(() => next), []);
  const onClose = useCallback(() => setRow(null), []);
  return { row, open: row !== null, show, onClose };
}

interface ReportDrawerProps {
  control: DrawerControl;
  title: ReactNode;
  subtitle?: ReactNode;
  testId: string;
  /** Its width from a tablet up (a phone: the whole screen). */
  width?: number;
  children: ReactNode;
}

/** A report's detail on the right (a machine's stock, a refill visit), over the report it comes from. */
export function ReportDrawer({ control, title, subtitle, testId, width = 720, children }: ReportDrawerProps) {
  const { t } = useTranslation();
  const { open, onClose } = control;
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
            <IconButton aria-label={t('common.close')} onClick={onClose}>
              <CloseIcon />
            </IconButton>
          </Box>
          {children}
        </Stack>
      ) : null}
    </Drawer>
  );
}
