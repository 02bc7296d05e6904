import { Title } from 'react-admin';
import Typography from '@mui/material/Typography';

/** App Customizations. */
export const CustomizationPage = () => (
  <>
    <Title title="App Customizations" />
    <Typography variant="h5" component="h1" sx={{ my: 2 }}>
      App Customizations
    </Typography>
  </>
);
