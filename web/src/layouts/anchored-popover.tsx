import { useState, type MouseEvent, type ReactNode } from 'react';
import Popover, { type PopoverOrigin } from '@mui/material/Popover';
import type { SxProps, Theme } from '@mui/material/styles';

export interface PopoverState {
  /** The element the popover hangs from while it is open. */
  anchor: HTMLElement | null;
  /** Opens it from the clicked element. */
  open: (event: MouseEvent<HTMLElement>) => void;
  close: () => void;
}

/** The open/closed state of a popover opened by a button. */
export function usePopover(): PopoverState {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return { anchor, open: (event) => setAnchor(event.currentTarget), close: () => setAnchor(null) };
}

interface AnchoredPopoverProps {
  popover: PopoverState;
  /** The paper's size and padding. */
  paperSx: SxProps<Theme>;
  /** Where on the button it opens: by default below it, right edges aligned (the header's buttons). */
  anchorOrigin?: PopoverOrigin;
  transformOrigin?: PopoverOrigin;
  children: ReactNode;
}

/** A popover hanging from the button that opened it (see `usePopover`). */
export function AnchoredPopover({
  popover,
  paperSx,
  anchorOrigin = { vertical: 'bottom', horizontal: 'right' },
  transformOrigin = { vertical: 'top', horizontal: 'right' },
  children,
}: AnchoredPopoverProps) {
  return (
    <Popover
      open={Boolean(popover.anchor)}
      anchorEl={popover.anchor}
      onClose={popover.close}
      anchorOrigin={anchorOrigin}
      transformOrigin={transformOrigin}
      slotProps={{ paper: { sx: paperSx } }}
    >
      {children}
    </Popover>
  );
}
