import { useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FunnelVariable } from '@branchify/shared';
import { keys } from '../../shared/data/keys';
import { useFunnel } from '../../shared/data/queries';
import { ROUTES } from '../../shared/routes';

/** 'Copied' shows for 1500 ms. */
const COPIED_MS = 1500;

const VARIABLE_KINDS: Record<FunnelVariable['type'], string> = { text: 'text', number: 'a number', yesno: 'yes or no' };

/** An example value of the kind the variable holds. */
const exampleValue = (v: FunnelVariable): string => (v.type === 'number' ? '3' : v.type === 'yesno' ? 'yes' : 'Ann');

const playerLink = (identifier: string, origin: string = window.location.origin): string => `${origin}${ROUTES.Player(identifier)}`;

// Fullscreen is allowed by `allow` alone: with `allowfullscreen` as well, browsers warn that `allow` wins.
const embedCode = (link: string): string =>
  `<iframe src="${link}" width="100%" height="100%" style="aspect-ratio: 16 / 9; border: 0;" allow="autoplay; fullscreen; picture-in-picture"></iframe>`;

const copyText = async (text: string, fallback: HTMLTextAreaElement | HTMLInputElement | null): Promise<void> => {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API unavailable (plain http, permissions): select and copy the field.
    fallback?.select();
    document.execCommand('copy');
  }
};

type Known = { id?: unknown; identifier?: unknown };

/** The id of the funnel with this reference, from the funnels the page has loaded (its list or the funnel itself). */
const knownFunnelId = (client: QueryClient, identifier: string): number | undefined => {
  for (const [, data] of client.getQueriesData<Known | { data?: Known[] }>({ queryKey: keys.funnels.all })) {
    const rows: Known[] = data && 'data' in data && Array.isArray(data.data) ? data.data : data ? [data as Known] : [];
    const found = rows.find((r) => r.identifier === identifier && typeof r.id === 'number');
    if (found) return found.id as number;
  }
  return undefined;
};

/** The funnel's variables, from its owner's copy of it (none while it loads). */
const useFunnelVariables = (identifier: string): FunnelVariable[] => {
  const client = useQueryClient();
  const [id] = useState(() => knownFunnelId(client, identifier));
  return useFunnel(id).data?.variables ?? [];
};

/** How the link sets variables: the funnel's own that it may set, with an example, or how to allow it. */
const VariablesHelp = ({ link, variables }: { link: string; variables: FunnelVariable[] }) => {
  const settable = variables.filter((v) => v.fromUrl);
  if (!settable.length) {
    return (
      <Typography variant="body2" color="text.secondary" data-testid="share-variables">
        {variables.length
          ? 'None of this funnel’s variables can be set by the link. To let the link set one, turn on “The link may set it” for it in the editor’s variables.'
          : 'The link can also set the funnel’s variables with query parameters, such as ?name=Ann, once you add variables in the editor and let the link set them.'}
      </Typography>
    );
  }
  const example = `${link}?${settable.map((v) => `${encodeURIComponent(v.name)}=${encodeURIComponent(exampleValue(v))}`).join('&')}`;
  return (
    <Box data-testid="share-variables">
      <Typography variant="body2">Set variables by adding them to the link (or to the embed code’s src) as query parameters, for example:</Typography>
      <Typography variant="body2" component="p" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', my: 0.5 }}>
        {example}
      </Typography>
      <Typography variant="body2" component="h3" sx={{ fontWeight: 600 }}>
        Variables the link can set
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 3 }}>
        {settable.map((v) => (
          <li key={v.name}>
            <Typography variant="body2">
              <Box component="code" sx={{ fontFamily: 'monospace' }}>
                {v.name}
              </Box>{' '}
              ({VARIABLE_KINDS[v.type]})
            </Typography>
          </li>
        ))}
      </Box>
    </Box>
  );
};

/** share-funnel: the player's link and the iframe embed code, each with a Copy button, and how the link sets variables. */
export const ShareFunnelModal = ({ identifier, close }: { identifier: string; close: () => void }) => {
  const link = playerLink(identifier);
  const code = embedCode(link);
  const variables = useFunnelVariables(identifier);
  const [copied, setCopied] = useState<'link' | 'code' | null>(null);
  const linkRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLTextAreaElement>(null);
  const timer = useRef<number>();
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const copy = async (what: 'link' | 'code') => {
    await copyText(what === 'link' ? link : code, what === 'link' ? linkRef.current : codeRef.current);
    setCopied(what);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied(null), COPIED_MS);
  };
  return (
    <>
      <DialogContent sx={{ pt: 0, display: 'grid', gap: 2 }}>
        <Box sx={{ display: 'grid', gap: 1 }}>
          <Typography variant="body2">Send this link, or open it, to watch the funnel on its own page.</Typography>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
            <TextField
              label="Link"
              value={link}
              inputRef={linkRef}
              sx={{ flex: '1 1 16rem', minWidth: 0 }}
              slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'player-link' } }}
              onFocus={(e) => e.target.select()}
            />
            <Button variant="outlined" onClick={() => void copy('link')} sx={{ mt: 1 }}>
              Copy link
            </Button>
          </Box>
          <VariablesHelp link={link} variables={variables} />
        </Box>
        <Box sx={{ display: 'grid', gap: 1 }}>
          <Typography variant="body2">Or paste this code into your page where the funnel should play.</Typography>
          <TextField
            label="Embed code"
            value={code}
            multiline
            minRows={3}
            inputRef={codeRef}
            slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'embed-code' } }}
            onFocus={(e) => e.target.select()}
          />
          <Box>
            <Button variant="contained" onClick={() => void copy('code')}>
              Copy
            </Button>
          </Box>
        </Box>
      </DialogContent>
      <DialogActions>
        <Typography role="status" aria-live="polite" color="success.main" sx={{ mr: 'auto', pl: 2 }}>
          {copied ? 'Copied' : ''}
        </Typography>
        <Button onClick={close}>Close</Button>
      </DialogActions>
    </>
  );
};
