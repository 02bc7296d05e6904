import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { errorMessage } from './api';

/** The loader: a spinner, or the failure with a Retry button. */
export const Loader = ({ label = 'Loading', error, onRetry }: { label?: string; error?: string | null; onRetry?: () => void }) => (
  <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 6 }} role="status" aria-live="polite">
    {error ? (
      <>
        <Typography color="error">{error}</Typography>
        {onRetry && (
          <Button variant="outlined" onClick={onRetry}>
            Retry
          </Button>
        )}
      </>
    ) : (
      <>
        <CircularProgress aria-label={label} />
      </>
    )}
  </Box>
);

/** What `Loaded` needs of a query (react-query's result has it). */
export interface QueryLike<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T | undefined;
  refetch: () => unknown;
}

/** Renders `children(data)` once the query has data, the loader before, and Retry on failure. */
export const Loaded = <T,>({ query, children }: { query: QueryLike<T>; children: (data: T) => ReactNode }) => {
  if (query.isPending) return <Loader />;
  if (query.isError || query.data === undefined) return <Loader error={errorMessage(query.error)} onRetry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
};
