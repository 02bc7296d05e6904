/**
 * Read by screen readers, not shown. Sizes are strings: in MUI's `sx` a bare 1 means 100%, which
 * made such a box as wide as the page and the page scroll sideways.
 */
export const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
} as const;
