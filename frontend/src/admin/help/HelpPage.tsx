import { Title } from 'react-admin';
import Typography from '@mui/material/Typography';

/** Help. */
export const HelpPage = () => (
  <>
    <Title title="Help" />
    <Typography variant="h5" component="h1" sx={{ my: 2 }}>
      Help
    </Typography>
  </>
);
