import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import type { PermissionNode } from '../../../api/types';
import { allLeafKeys, nodeState, setNode } from './permission-tree-logic';

interface Props {
  catalogue: PermissionNode[];
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
}

function NodeCheckbox({ node, selected, onChange, variant }: { node: PermissionNode; variant: 'group' | 'section' | 'leaf' } & Omit<Props, 'catalogue'>) {
  const state = nodeState(node, selected);
  return (
    <FormControlLabel
      sx={{ mr: 1, '& .MuiFormControlLabel-label': { typography: variant === 'group' ? 'subtitle1' : variant === 'section' ? 'subtitle2' : 'body2' } }}
      control={
        <Checkbox
          size={variant === 'leaf' ? 'small' : 'medium'}
          checked={state === 'checked'}
          indeterminate={state === 'indeterminate'}
          onChange={(event) => onChange(setNode(node, selected, event.target.checked))}
          slotProps={{ input: { 'data-key': node.key } as object }}
        />
      }
      label={node.name}
    />
  );
}

function Section({ node, selected, onChange }: { node: PermissionNode } & Omit<Props, 'catalogue'>) {
  const children = node.children ?? [];
  if (children.length === 0) return <NodeCheckbox node={node} selected={selected} onChange={onChange} variant="leaf" />;
  return (
    <Box sx={{ py: 1 }}>
      <NodeCheckbox node={node} selected={selected} onChange={onChange} variant="section" />
      <Box sx={{ pl: 4, display: 'flex', flexWrap: 'wrap', columnGap: 1 }}>
        {children.map((child) =>
          child.children?.length ? (
            <Box key={child.key} sx={{ width: 1 }}>
              <Section node={child} selected={selected} onChange={onChange} />
            </Box>
          ) : (
            <NodeCheckbox key={child.key} node={child} selected={selected} onChange={onChange} variant="leaf" />
          ),
        )}
      </Box>
    </Box>
  );
}

/** The permission catalogue as a grouped checkbox tree (parents are tri-state). */
export function PermissionTree({ catalogue, selected, onChange }: Props) {
  const { t } = useTranslation();
  const all = allLeafKeys(catalogue);
  const everything = all.length > 0 && all.every((key) => selected.has(key));
  const some = all.some((key) => selected.has(key));
  return (
    <Box data-testid="permission-tree" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <FormControlLabel
        control={
          <Checkbox
            checked={everything}
            indeterminate={some && !everything}
            onChange={(event) => {
              const next = new Set(selected);
              all.forEach((key) => (event.target.checked ? next.add(key) : next.delete(key)));
              onChange(next);
            }}
          />
        }
        label={<Typography variant="subtitle2">{t('users.selectAll')}</Typography>}
      />
      {catalogue.map((group) => (
        <Box
          key={group.key}
          sx={{ p: 2, borderRadius: 1.5, border: (theme) => `1px dashed ${alpha(theme.palette.grey[500], 0.32)}` }}
        >
          <NodeCheckbox node={group} selected={selected} onChange={onChange} variant="group" />
          <Box sx={{ pl: 4 }}>
            {(group.children ?? []).map((child) => (
              <Section key={child.key} node={child} selected={selected} onChange={onChange} />
            ))}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
