import type { ReactNode } from 'react';
import Box from '@mui/material/Box';

/**
 * Hides its content from the eye but not from screen readers. Sizes in pixels as strings: in `sx`
 * a bare 1 is 100 % and a margin counts theme spacings, which made the page scroll sideways.
 */
export const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  padding: 0,
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

export function VisuallyHidden({ children }: { children: ReactNode }) {
  return (
    <Box component="span" sx={VISUALLY_HIDDEN}>
      {children}
    </Box>
  );
}

/**
 * A short text shown (`-12 %`, `—`, a chip) and a full sentence read out instead ("Down 12 % on the
 * previous period"): `aria-label` may not name a plain span or a chip, so what is shown is hidden
 * from screen readers (its box kept out of the layout) and the sentence is visually hidden text.
 */
export function Spoken({ text, children }: { text: string; children: ReactNode }) {
  return (
    <>
      <Box component="span" aria-hidden sx={{ display: 'contents' }}>
        {children}
      </Box>
      <VisuallyHidden>{text}</VisuallyHidden>
    </>
  );
}
