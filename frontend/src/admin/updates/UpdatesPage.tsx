import { Title } from 'react-admin';
import Typography from '@mui/material/Typography';

/** App update. */
export const UpdatesPage = () => (
  <>
    <Title title="App update" />
    <Typography variant="h5" component="h1" sx={{ my: 2 }}>
      App update
    </Typography>
  </>
);
