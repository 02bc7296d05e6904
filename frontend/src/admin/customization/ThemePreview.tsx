import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { DEFAULT_COLOR_SCHEME } from '@branchify/shared';
import { AA_NORMAL_TEXT, contrast, formatRatio, normalizeHex, textOnPrimary } from './contrast';

/** The mock is a picture, not controls: out of the tab order and the accessibility tree. */
const inert = (el: HTMLElement | null) => el?.setAttribute('inert', '');

/**
 * A small mock of the app in the chosen colours (sidebar, card, button), redrawn as the admin
 * picks, with a warning when text on the primary colour (or body text on the background) would
 * not meet WCAG AA.
 */
export const ThemePreview = ({ scheme, appName, logoUrl }: { scheme: Record<string, string>; appName: string; logoUrl: string | null }) => {
  const color = (name: string) => normalizeHex(scheme[`--${name}`], DEFAULT_COLOR_SCHEME[`--${name}`]);
  const primary = color('primary');
  const secondary = color('secondary');
  const accent = color('accent');
  const background = color('background');
  const white = color('white');
  const dark = color('dark');
  const onPrimary = textOnPrimary(primary);
  const onAccent = textOnPrimary(accent);
  const checks = [
    { what: 'Text on the primary colour', fix: 'primary', ...contrast(onPrimary, primary) },
    { what: 'Body text (dark) on the background', fix: 'dark or background', ...contrast(dark, background) },
  ];

  return (
    <Box>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        Live preview
      </Typography>
      <Box
        ref={inert}
        data-testid="theme-preview"
        sx={{ display: 'flex', height: 250, borderRadius: 2, overflow: 'hidden', border: '1px solid', borderColor: 'divider', bgcolor: background }}
      >
        <Box sx={{ width: 130, flexShrink: 0, bgcolor: white, borderRight: `1px solid ${dark}1a`, p: 1.5, color: dark }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2, minHeight: 28 }}>
            {logoUrl ? <img src={logoUrl} alt="" style={{ maxHeight: 24, maxWidth: 96 }} /> : null}
            {!logoUrl && <Typography sx={{ fontWeight: 700, fontSize: 14, color: dark }}>{appName || 'App name'}</Typography>}
          </Box>
          {['Funnels', 'Library', 'Settings'].map((item, index) => (
            <Box
              key={item}
              sx={{
                fontSize: 13,
                px: 1,
                py: 0.75,
                mb: 0.5,
                borderRadius: 1,
                fontWeight: index === 0 ? 600 : 400,
                bgcolor: index === 0 ? secondary : 'transparent',
                color: index === 0 ? primary : dark,
              }}
            >
              {item}
            </Box>
          ))}
        </Box>
        <Box sx={{ flex: 1, p: 2, color: dark, minWidth: 0 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1.5 }}>
            <Typography sx={{ fontWeight: 700, fontSize: 16, color: dark }}>Funnels</Typography>
            <Box sx={{ bgcolor: primary, color: onPrimary, fontSize: 13, fontWeight: 600, px: 1.5, py: 0.75, borderRadius: 1 }}>Create funnel</Box>
          </Box>
          <Box sx={{ bgcolor: white, borderRadius: 2, p: 1.5, border: `1px solid ${dark}1a`, boxShadow: `0 1px 3px ${dark}14` }}>
            <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
              <Typography sx={{ fontWeight: 600, fontSize: 14, color: dark }}>Spring launch</Typography>
              <Box sx={{ bgcolor: accent, color: onAccent, fontSize: 11, fontWeight: 600, px: 1, py: 0.25, borderRadius: 5 }}>Published</Box>
            </Box>
            <Typography sx={{ fontSize: 12, color: dark, opacity: 0.75, mt: 0.5 }}>3 videos · 2 branches</Typography>
            <Box sx={{ mt: 1.5, display: 'flex', gap: 1 }}>
              <Box sx={{ border: `1px solid ${primary}`, color: primary, fontSize: 12, fontWeight: 600, px: 1, py: 0.5, borderRadius: 1 }}>Edit</Box>
              <Box sx={{ color: primary, fontSize: 12, fontWeight: 600, px: 1, py: 0.5 }}>Share</Box>
            </Box>
          </Box>
        </Box>
      </Box>
      {checks
        .filter((c) => !c.passes)
        .map((c) => (
          <Alert key={c.what} severity="warning" sx={{ mt: 1 }} data-testid="contrast-warning">
            {c.what} has a contrast of {formatRatio(c.ratio)}; WCAG AA needs at least {AA_NORMAL_TEXT}:1 for normal text. Choose another {c.fix} colour.
          </Alert>
        ))}
    </Box>
  );
};
