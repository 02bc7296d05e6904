import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** A titled card of the user page (details, subscription, invoices), its actions on the right. */
export const Section = ({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) => {
  const id = `section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Paper component="section" aria-labelledby={id} sx={{ p: 3, mb: 3 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 2 }}>
        <Typography id={id} variant="h6" component="h2">
          {title}
        </Typography>
        {action && <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>{action}</Box>}
      </Box>
      {children}
    </Paper>
  );
};

/** One label and value of a section. */
export const Field = ({ label, children }: { label: string; children: ReactNode }) => (
  <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '180px 1fr' }, py: 0.75, alignItems: 'center' }}>
    <Typography color="text.secondary">{label}</Typography>
    <Box>{children}</Box>
  </Box>
);
