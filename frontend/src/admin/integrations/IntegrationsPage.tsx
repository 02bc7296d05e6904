import { Title } from 'react-admin';
import Typography from '@mui/material/Typography';

/** Integrations. */
export const IntegrationsPage = () => (
  <>
    <Title title="Integrations" />
    <Typography variant="h5" component="h1" sx={{ my: 2 }}>
      Integrations
    </Typography>
  </>
);
