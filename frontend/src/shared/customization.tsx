import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { DEFAULT_APP_NAME, DEFAULT_COLOR_SCHEME, type CustomizationResource } from '@branchify/shared';
import { api } from './api';
import { keys } from './data/keys';

/** Defaults, used until (or if) GET /api/customizations answers. */
export const DEFAULT_CUSTOMIZATION: CustomizationResource = {
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

const CustomizationContext = createContext<CustomizationApi>({ customization: DEFAULT_CUSTOMIZATION, loaded: false, reload: async () => undefined });

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const color = (scheme: Record<string, string>, name: string, fallback: string): string => {
  const v = scheme[`--${name}`];
  return v && HEX.test(v) ? v : fallback;
};

/** Branding from the app customization: CSS variables, the MUI palette, favicon and title. */
export const CustomizationProvider = ({ children }: { children: ReactNode }) => {
  const loaded = useQuery({
    queryKey: keys.customization,
    queryFn: async () => (await api.get<CustomizationResource>('customizations', { quiet401: true })).data,
    // Branding is optional: on failure the defaults stay, without a retry storm.
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const customization = useMemo<CustomizationResource>(
    () =>
      loaded.data
        ? {
            ...DEFAULT_CUSTOMIZATION,
            ...loaded.data,
            app_color_scheme: { ...DEFAULT_CUSTOMIZATION.app_color_scheme, ...(loaded.data.app_color_scheme ?? {}) },
          }
        : DEFAULT_CUSTOMIZATION,
    [loaded.data],
  );
  const { refetch } = loaded;
  const reload = useCallback(async () => {
    await refetch();
  }, [refetch]);

  const scheme = customization.app_color_scheme;
  useEffect(() => {
    const root = document.documentElement;
    for (const [k, v] of Object.entries(scheme)) if (k.startsWith('--')) root.style.setProperty(k, v);
  }, [scheme]);
  useEffect(() => {
    const link = document.getElementById('app-favicon') as HTMLLinkElement | null;
    if (link && customization.app_favicon_url) link.href = customization.app_favicon_url;
  }, [customization.app_favicon_url]);

  const theme = useMemo(
    () =>
      createTheme({
        palette: {
          primary: { main: color(scheme, 'primary', '#2f27ce') },
          secondary: { main: color(scheme, 'accent', '#433bff') },
          background: { default: color(scheme, 'background', '#fbfbfe') },
        },
        shape: { borderRadius: 8 },
        typography: { button: { textTransform: 'none', fontWeight: 600 } },
        components: {
          MuiButtonBase: { defaultProps: { disableRipple: false } },
          MuiTextField: { defaultProps: { fullWidth: true, margin: 'normal' } },
          // Visible keyboard focus on every control.
          MuiButton: { styleOverrides: { root: { '&.Mui-focusVisible': { outline: '2px solid currentColor', outlineOffset: 2 } } } },
          MuiIconButton: { styleOverrides: { root: { '&.Mui-focusVisible': { outline: '2px solid currentColor', outlineOffset: 2 } } } },
        },
      }),
    [scheme],
  );

  const isLoaded = !loaded.isPending;
  const value = useMemo(() => ({ customization, loaded: isLoaded, reload }), [customization, isLoaded, reload]);
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
