import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import type { AlertItem } from './alerts';

/** The floating banners, newest last (lazy: see alerts.tsx). */
const AlertBanners = ({ items, dismiss }: { items: AlertItem[]; dismiss: (id: number) => void }) => (
  <Stack spacing={1}>
    {items.map((a) => (
      <Alert
        key={a.id}
        data-testid="alert"
        variant="filled"
        severity={a.error ? 'error' : 'success'}
        role={a.error ? 'alert' : 'status'}
        onClose={() => dismiss(a.id)}
      >
        {a.message}
      </Alert>
    ))}
  </Stack>
);

export default AlertBanners;
