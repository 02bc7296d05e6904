import type { ReactNode } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';

/** An icon button with its tooltip (`title`) and its accessible name (`label`, naming what it acts on). */
export const IconAction = ({ title, label, onClick, children }: { title: string; label: string; onClick: () => void; children: ReactNode }) => (
  <Tooltip title={title}>
    <IconButton aria-label={label} onClick={onClick}>
      {children}
    </IconButton>
  </Tooltip>
);
