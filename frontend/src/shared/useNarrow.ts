import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';

/**
 * Below the `md` breakpoint (900 px: phones, tablets held upright) the sidebars become drawers
 * behind a menu button and the page has the whole width.
 */
export const useNarrow = (): boolean => {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
};
