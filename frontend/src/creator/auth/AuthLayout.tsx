import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useCustomization } from '../../shared/customization';
import { usePageTitle } from '../../shared/usePageTitle';

/** The frame of the public auth pages: the app's logo or name, a title and a card. */
export const AuthLayout = ({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) => {
  const { customization } = useCustomization();
  usePageTitle(title, customization.app_name);
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'background.default', p: 2 }}>
      <Paper elevation={2} sx={{ width: 'min(440px, 100%)', p: 4 }}>
        <Box sx={{ textAlign: 'center', mb: 2 }}>
          {customization.app_logo_url ? (
            <img src={customization.app_logo_url} alt={customization.app_name} style={{ maxHeight: 48 }} />
          ) : (
            <Typography variant="h5" component="p" color="primary" style={{ fontWeight: 700 }}>
              {customization.app_name}
            </Typography>
          )}
        </Box>
        <Typography variant="h5" component="h1" gutterBottom>
          {title}
        </Typography>
        {subtitle && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {subtitle}
          </Typography>
        )}
        {children}
      </Paper>
    </Box>
  );
};
