import type { ReactNode } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';

interface RowActionProps {
  /** What it does: the tooltip, and with the row's name the button's label ("Edit: Acme"). */
  label: string;
  /** What names the row in the button's label. */
  name: string;
  /** A small icon. */
  icon: ReactNode;
  onClick: () => void;
  testId: string;
  /** `error` for a destructive action (a deletion). */
  color?: 'error';
  /** Given, the button can be turned off: it then stands in a span, so that its tooltip still shows. */
  disabled?: boolean;
}

/** An icon button of a table row (in its `actionsColumn`), its tooltip above it. */
export function RowAction({ label, name, icon, onClick, testId, color, disabled }: RowActionProps) {
  const button = (
    <IconButton aria-label={`${label}: ${name}`} color={color} onClick={onClick} disabled={disabled} data-testid={testId}>
      {icon}
    </IconButton>
  );
  return <Tooltip title={label}>{disabled === undefined ? button : <span>{button}</span>}</Tooltip>;
}
