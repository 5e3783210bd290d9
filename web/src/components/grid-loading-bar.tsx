// A data grid's loading bar with a name (issue 33). MUI X draws the bar of its loading overlay
// inside the element with role="grid", where only rows may be (axe: aria-required-children), and
// gives it no name. This bar is drawn where MUI X draws it (under the column headers, above the
// rows) but placed in the grid's root element, outside role="grid", and named in the UI language.
import { useCallback, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import LinearProgress, { type LinearProgressProps } from '@mui/material/LinearProgress';
import { gridClasses } from '@mui/x-data-grid';

/** The grid's `baseLinearProgress` slot: the overlay's bar, moved out of role="grid". */
export function GridLoadingBar(props: LinearProgressProps) {
  const { t } = useTranslation();
  const [root, setRoot] = useState<HTMLElement | null>(null);
  // The grid's root element, found from a mark in the overlay once both are in the page (the
  // grid's own ref to it is set after its children's, too late on a grid that starts loading).
  const place = useCallback((mark: HTMLElement | null) => setRoot(mark?.closest<HTMLElement>(`.${gridClasses.root}`) ?? null), []);
  return (
    <>
      <span ref={place} hidden />
      {root
        ? createPortal(
            <LinearProgress
              {...props}
              aria-label={t('common.loadingRows')}
              data-testid="grid-loading-bar"
              sx={{ position: 'absolute', top: 'var(--DataGrid-topContainerHeight)', left: 0, right: 0, zIndex: 5 }}
            />,
            root,
          )
        : null}
    </>
  );
}
