import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { createTheme } from '@mui/material/styles';
import { ThemeProvider } from '@mui/system';
import { DEFAULT_APP_NAME, DEFAULT_COLOR_SCHEME, HEX_COLOR, type CustomizationResource } from '@branchify/shared';
import { api } from './api';

/** Defaults, used until (or if) GET /api/customizations answers. */
const DEFAULT_CUSTOMIZATION: CustomizationResource = {
  app_name: DEFAULT_APP_NAME,
  app_description: '',
  app_logo_url: null,
  app_favicon_url: null,
  app_support_url: null,
  app_color_scheme: { ...DEFAULT_COLOR_SCHEME },
  mailer_configured: true,
};

interface CustomizationApi {
  customization: CustomizationResource;
  loaded: boolean;
  reload(): Promise<void>;
}

const CustomizationContext = createContext<CustomizationApi>({ customization: DEFAULT_CUSTOMIZATION, loaded: false, reload: () => Promise.resolve() });

const color = (scheme: Record<string, string>, name: string, fallback: string): string => {
  const v = scheme[`--${name}`];
  return v && HEX_COLOR.test(v) ? v : fallback;
};

/**
 * The branding as fetched: a module-level store, so every page reads it without the data layer
 * (react-query loads with the signed-in pages; data/QueryScope.tsx ties the 'customization' query
 * key to this store, so invalidating it refetches here). `loaded` turns true at the first answer
 * or failure; a failed fetch keeps what was there (the defaults at first).
 */
interface BrandingState {
  data: CustomizationResource | null;
  loaded: boolean;
}
let branding: BrandingState = { data: null, loaded: false };
let inflight: Promise<void> | null = null;
const listeners = new Set<() => void>();

const subscribe = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
const snapshot = (): BrandingState => branding;

/** Fetches the branding (one request at a time: a call while one is under way shares it). */
export const fetchCustomization = (): Promise<void> => {
  inflight ??= (async () => {
    try {
      const data = (await api.get<CustomizationResource>('customizations', { quiet401: true })).data;
      branding = { data, loaded: true };
    } catch {
      // Branding is optional: on failure the defaults (or the last answer) stay, without a retry.
      branding = { ...branding, loaded: true };
    } finally {
      inflight = null;
    }
    for (const listener of listeners) listener();
  })();
  return inflight;
};

/** The branding with the defaults filled in. */
const merged = (data: CustomizationResource | null): CustomizationResource =>
  data
    ? { ...DEFAULT_CUSTOMIZATION, ...data, app_color_scheme: { ...DEFAULT_CUSTOMIZATION.app_color_scheme, ...(data.app_color_scheme ?? {}) } }
    : DEFAULT_CUSTOMIZATION;

/** The branding now, defaults filled in (the data layer's 'customization' query answers with it). */
export const currentCustomization = (): { customization: CustomizationResource; loaded: boolean } => ({
  customization: merged(branding.data),
  loaded: branding.loaded,
});

/** Branding from the app customization: CSS variables, the MUI palette, favicon and title. */
export const CustomizationProvider = ({ children }: { children: ReactNode }) => {
  const state = useSyncExternalStore(subscribe, snapshot);
  useEffect(() => {
    if (!snapshot().loaded) void fetchCustomization();
  }, []);
  const customization = useMemo(() => merged(state.data), [state.data]);
  const reload = useCallback(() => fetchCustomization(), []);

  const scheme = customization.app_color_scheme;
  useEffect(() => {
    const root = document.documentElement;
    for (const [k, v] of Object.entries(scheme)) if (k.startsWith('--')) root.style.setProperty(k, v);
  }, [scheme]);
  useEffect(() => {
    const link = document.getElementById('app-favicon') as HTMLLinkElement | null;
    if (link && customization.app_favicon_url) link.href = customization.app_favicon_url;
  }, [customization.app_favicon_url]);

  // The theme is made again only when a colour it uses changes (not when the same branding arrives):
  // a new theme restyles every component on the page.
  const primary = color(scheme, 'primary', '#2f27ce');
  const accent = color(scheme, 'accent', '#433bff');
  const background = color(scheme, 'background', '#fbfbfe');
  // A theme without CSS variables, as MUI's ThemeProvider passes one on (`vars: null`): the system's
  // provider takes it without MUI's CSS-variables provider, which every page would download unused.
  const theme = useMemo(
    () => ({
      ...createTheme({
        palette: {
          primary: { main: primary },
          secondary: { main: accent },
          background: { default: background },
        },
        shape: { borderRadius: 8 },
        typography: { button: { textTransform: 'none', fontWeight: 600 } },
        components: {
          // No server rendering: media queries answer on the first render, not in a second one.
          MuiUseMediaQuery: { defaultProps: { noSsr: true } },
          MuiButtonBase: { defaultProps: { disableRipple: false } },
          MuiTextField: { defaultProps: { fullWidth: true, margin: 'normal' } },
          // Visible keyboard focus on every control.
          MuiButton: { styleOverrides: { root: { '&.Mui-focusVisible': { outline: '2px solid currentColor', outlineOffset: 2 } } } },
          MuiIconButton: { styleOverrides: { root: { '&.Mui-focusVisible': { outline: '2px solid currentColor', outlineOffset: 2 } } } },
        },
      }),
      vars: null,
    }),
    [primary, accent, background],
  );

  const value = useMemo(() => ({ customization, loaded: state.loaded, reload }), [customization, state.loaded, reload]);
  return (
    <CustomizationContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </CustomizationContext.Provider>
  );
};

export const useCustomization = (): CustomizationApi => useContext(CustomizationContext);

export const sidebarWidth = (c: CustomizationResource): string => c.app_color_scheme['--sidebar-width'] || '270px';
