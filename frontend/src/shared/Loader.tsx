import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { errorMessage } from './api';

export type LoadState<T> = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; data: T };

/** Loads data once (and again on `reload` or when deps change); failures keep their message for Retry. */
export const useLoad = <T,>(load: () => Promise<T>, deps: unknown[] = []) => {
  const [state, setState] = useState<LoadState<T>>({ status: 'loading' });
  const loadRef = useRef(load);
  loadRef.current = load;
  const seqRef = useRef(0);
  const reload = useCallback(async () => {
    seqRef.current += 1;
    const seq = seqRef.current;
    setState((s) => (s.status === 'ready' ? s : { status: 'loading' }));
    try {
      const data = await loadRef.current();
      if (seq === seqRef.current) setState({ status: 'ready', data });
    } catch (error) {
      if (seq === seqRef.current) setState({ status: 'error', message: errorMessage(error) });
    }
  }, []);
  // The caller's deps decide when to load again; compared by value.
  const depsKey = JSON.stringify(deps);
  useEffect(() => {
    setState({ status: 'loading' });
    void reload();
  }, [depsKey, reload]);
  return { state, reload, setState };
};

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

/** Renders `children(data)` once loaded, the loader before, and Retry on failure. */
export const Loaded = <T,>({ state, reload, children }: { state: LoadState<T>; reload: () => void; children: (data: T) => ReactNode }) => {
  if (state.status === 'loading') return <Loader />;
  if (state.status === 'error') return <Loader error={state.message} onRetry={reload} />;
  return <>{children(state.data)}</>;
};
