import { useCallback, useEffect, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { messageTemplates, PROVIDER_LABELS, parseVideoSource, type ParsedVideoSource, type VideoProvider } from '@branchify/shared';
import { api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { useForm } from '../../shared/forms';
import { TextInput } from '../../shared/inputs';
import { useSession } from '../../shared/session';
import type { User, Subscription, Video } from '../../shared/types';
import { useDebounced } from '../../shared/useDebounced';
import { VideoPreview, type VideoMeta } from './VideoPreview';

/** The tabs in the modal's order. */
export const PROVIDER_TABS: VideoProvider[] = ['adilo', 'youtube', 'vimeo', 'generic'];
/** The URL/ID input is parsed 1000 ms after the last keystroke. */
export const URL_DEBOUNCE_MS = 1000;

/** Admins all; others their plan's video_sources (null = all); no subscription → youtube. */
export const allowedProviders = (user: User | null, subscription: Subscription | null): VideoProvider[] => {
  if (user?.is_admin) return [...PROVIDER_TABS];
  if (!subscription?.plan) return ['youtube'];
  const sources = subscription.plan.video_sources;
  if (!sources) return [...PROVIDER_TABS];
  return PROVIDER_TABS.filter((p) => sources.map((s) => s.toLowerCase()).includes(p));
};

export const placeholderFor = (provider: VideoProvider): string => {
  const label = PROVIDER_LABELS[provider];
  return provider === 'generic' ? `Enter ${label} URL` : `Enter ${label} URL Or ${label} ID`;
};

/** Best-effort Vimeo public metadata (title, thumbnail_medium, duration). */
const vimeoMeta = async (id: string): Promise<{ title?: string; thumbnail_medium?: string; duration?: number } | null> => {
  try {
    const res = await fetch(`https://vimeo.com/api/v2/video/${encodeURIComponent(id)}.json`);
    if (!res.ok) return null;
    const body = (await res.json()) as { title?: string; thumbnail_medium?: string; duration?: number }[];
    return body[0] ?? null;
  } catch {
    return null;
  }
};

/**
 * create-video ("Add or Edit Video"): choose a source tab, enter a URL or id, preview, save.
 * With `video` it opens in edit mode: title, URL and provider prefilled, provider and URL locked.
 */
export const CreateVideoModal = ({ video, close, onSaved }: { video?: Video; close: () => void; onSaved: () => void }) => {
  const { user, subscription } = useSession();
  const alert = useAlert();
  const allowed = useMemo(() => allowedProviders(user, subscription), [user, subscription]);
  const initialProvider: VideoProvider = video?.provider ?? (allowed.includes('youtube') ? 'youtube' : (allowed[0] ?? 'youtube'));
  const [provider, setProvider] = useState<VideoProvider>(initialProvider);
  const [upgrade, setUpgrade] = useState<string | null>(null);
  const form = useForm({ title: video?.title ?? '', url: video?.source ?? '' });
  const typed = useDebounced(form.values.url, URL_DEBOUNCE_MS);
  const [meta, setMeta] = useState<VideoMeta & { thumbnail?: string; title?: string }>({});

  const parsed = useMemo(() => (typed.trim() ? parseVideoSource(provider, typed) : null), [provider, typed]);
  const source: ParsedVideoSource | null = parsed?.ok ? parsed.value : null;
  const parseError = parsed && !parsed.ok ? parsed.message : undefined;

  useEffect(() => {
    setMeta({});
    if (source?.provider === 'vimeo' && source.external_id && !video) {
      let live = true;
      void vimeoMeta(source.external_id).then((m) => {
        if (live && m) setMeta((x) => ({ ...x, title: m.title, thumbnail: m.thumbnail_medium, duration: m.duration }));
      });
      return () => {
        live = false;
      };
    }
    return undefined;
  }, [source?.embed_url, source?.provider, source?.external_id, video]);

  const selectProvider = (next: VideoProvider) => {
    // Selecting a provider resets the URL/ID and the upgrade message.
    setProvider(next);
    form.set('url', '');
    form.setErrors({});
    setUpgrade(allowed.includes(next) ? null : messageTemplates.providerNotInPlan(PROVIDER_LABELS[next]));
  };

  const onMeta = useCallback((m: VideoMeta) => setMeta((x) => ({ ...x, ...m })), []);

  const onSubmit = form.submit(async (v) => {
    if (video) {
      const res = await api.put(`videos/${video.id}`, { title: v.title });
      alert.success(res.message ?? '');
    } else {
      if (!allowed.includes(provider)) {
        alert.error(messageTemplates.providerNotInPlan(PROVIDER_LABELS[provider]));
        return;
      }
      const local = parseVideoSource(provider, v.url);
      if (!local.ok) {
        form.setErrors({ url: [local.message] });
        return;
      }
      const body: Record<string, unknown> = { provider, url: v.url.trim() };
      const title = v.title.trim() || meta.title;
      if (title) body.title = title;
      if (meta.duration) body.duration = Math.round(meta.duration);
      if (meta.thumbnail) body.thumbnail = meta.thumbnail;
      const res = await api.post('videos', body);
      alert.success(res.message ?? '');
    }
    close();
    onSaved();
  });

  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <DialogContent sx={{ pt: 0 }}>
        <Tabs value={provider} onChange={(_e, p: VideoProvider) => !video && selectProvider(p)} aria-label="Video source" variant="fullWidth" sx={{ mb: 1 }}>
          {PROVIDER_TABS.map((p) => (
            <Tab key={p} value={p} label={PROVIDER_LABELS[p]} disabled={Boolean(video) && p !== provider} />
          ))}
        </Tabs>
        {upgrade && (
          <Alert severity="warning" data-testid="upgrade-message">
            {upgrade}
          </Alert>
        )}
        <TextInput
          name="url"
          label={provider === 'generic' ? 'Video URL' : 'Video URL or ID'}
          placeholder={placeholderFor(provider)}
          value={form.values.url}
          onChange={(val) => form.set('url', val)}
          error={form.error('url') ?? form.error('video_id') ?? form.error('provider') ?? (form.values.url === typed ? parseError : undefined)}
          disabled={Boolean(video) || Boolean(upgrade)}
          requiredMark
          autoFocus
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextInput
          name="title"
          label="Title"
          value={form.values.title}
          onChange={(val) => form.set('title', val)}
          error={form.error('title')}
          placeholder={meta.title}
        />
        {(source || video) && (
          <Box sx={{ mt: 2 }}>
            {/* The spec's player errors show in place of the video and in the alert banner. */}
            <VideoPreview
              provider={source?.provider ?? video!.provider}
              embedUrl={source?.embed_url ?? video!.embed_url}
              externalId={source ? source.external_id : video!.external_id}
              sourceUrl={source ? source.source_url : video!.source_url}
              title={form.values.title || meta.title || 'Video preview'}
              onMeta={onMeta}
            />
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={form.submitting || Boolean(upgrade) || (!video && !source)}>
          Save
        </Button>
      </DialogActions>
    </Box>
  );
};
