import useScrollTrigger from '@mui/material/useScrollTrigger';
import type { Theme } from '@mui/material/styles';

/**
 * Where a bar kept in sight sits: just under the panel's app bar while that shows, at the very top
 * once it has slid away. The app bar hides as the page scrolls down and comes back on scrolling up
 * (react-admin's HideOnScroll, with the same trigger), so a bar pinned at 0 would end up under it.
 * Heights are the app bar's toolbar: regular below `sm`, dense from `sm`.
 */
export const useStickyTop = () => {
  const appBarHidden = useScrollTrigger();
  return {
    position: 'sticky' as const,
    top: appBarHidden ? 0 : { xs: 56, sm: 48 },
    transition: (theme: Theme) => theme.transitions.create('top', { duration: theme.transitions.duration.enteringScreen }),
  };
};
