import { useCallback, useEffect, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import DialogContent from '@mui/material/DialogContent';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import {
  createVideoSchema,
  editVideoFormSchema,
  messageTemplates,
  PROVIDER_LABELS,
  parseVideoSource,
  type ParsedVideoSource,
  type SubscriptionResource,
  type UserResource,
  type VideoProvider,
  type VideoResource,
} from '@branchify/shared';
import { api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { keys } from '../../shared/data/keys';
import { useApiMutation } from '../../shared/data/mutations';
import { FormTextInput, useApiForm } from '../../shared/form';
import { TextInput } from '../../shared/inputs/TextInput';
import { useSession } from '../../shared/session';
import { useDebounced } from '../../shared/useDebounced';
import { VideoPreview, type VideoMeta } from './VideoPreview';
import { FormDialogActions } from '../../shared/FormDialogActions';

/** The tabs in the modal's order. */
const PROVIDER_TABS: VideoProvider[] = ['adilo', 'youtube', 'vimeo', 'generic'];
/** The URL/ID input is parsed 1000 ms after the last keystroke. */
const URL_DEBOUNCE_MS = 1000;

/** Admins all; others their plan's video_sources (null = all); no subscription → youtube. */
const allowedProviders = (user: UserResource | null, subscription: SubscriptionResource | null): VideoProvider[] => {
  if (user?.is_admin) return [...PROVIDER_TABS];
  if (!subscription?.plan) return ['youtube'];
  const sources = subscription.plan.video_sources;
  if (!sources) return [...PROVIDER_TABS];
  return PROVIDER_TABS.filter((p) => sources.map((s) => s.toLowerCase()).includes(p));
};

const placeholderFor = (provider: VideoProvider): string => {
  const label = PROVIDER_LABELS[provider];
  return provider === 'generic' ? 'Enter a direct video URL' : `Enter ${label} URL Or ${label} ID`;
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

type FoundMeta = VideoMeta & { thumbnail?: string; title?: string };

/**
 * What is known of the video beyond its URL: Vimeo's public metadata for a new Vimeo video, and
 * what the preview player reports (`onMeta`). Cleared when the source changes.
 */
const useVideoMeta = (source: ParsedVideoSource | null, video: VideoResource | undefined) => {
  const [meta, setMeta] = useState<FoundMeta>({});
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
  const onMeta = useCallback((m: VideoMeta) => setMeta((x) => ({ ...x, ...m })), []);
  return { meta, onMeta };
};

/** What POST videos takes: the provider and URL, with the title typed (else the one found), duration and thumbnail when known. */
const createBody = (v: { provider: VideoProvider; url?: string; title?: string | null }, meta: FoundMeta): Record<string, unknown> => {
  const body: Record<string, unknown> = { provider: v.provider, url: (v.url ?? '').trim() };
  const chosenTitle = (v.title ?? '').trim() || meta.title;
  if (chosenTitle) body.title = chosenTitle;
  if (meta.duration) body.duration = Math.round(meta.duration);
  if (meta.thumbnail) body.thumbnail = meta.thumbnail;
  return body;
};

/**
 * One tab per source; in edit mode (`locked`) only the video's own is enabled and nothing changes.
 * They share the width when they fit; on a narrow screen they scroll, with arrows on each side.
 */
const ProviderTabs = ({ provider, locked, onSelect }: { provider: VideoProvider; locked: boolean; onSelect: (provider: VideoProvider) => void }) => (
  <Tabs
    value={provider}
    onChange={(_e, p: VideoProvider) => !locked && onSelect(p)}
    aria-label="Video source"
    variant="scrollable"
    scrollButtons="auto"
    allowScrollButtonsMobile
    sx={{ mb: 1, '& .MuiTab-root': { flex: '1 0 auto' } }}
  >
    {PROVIDER_TABS.map((p) => (
      <Tab key={p} value={p} label={PROVIDER_LABELS[p]} disabled={locked && p !== provider} />
    ))}
  </Tabs>
);

/** The URL or id as typed, parsed 1000 ms after the last keystroke: the source it names, or why it names none. */
const useTypedSource = (provider: VideoProvider, url: string) => {
  const typed = useDebounced(url, URL_DEBOUNCE_MS);
  const parsed = useMemo(() => (typed.trim() ? parseVideoSource(provider, typed) : null), [provider, typed]);
  const source: ParsedVideoSource | null = parsed?.ok ? parsed.value : null;
  const parseError = parsed && !parsed.ok ? parsed.message : undefined;
  return { typed, source, parseError };
};

/** The typed source playing, else (edit mode, `video` set) the saved video. */
const SourcePreview = ({
  source,
  video,
  title,
  onMeta,
}: {
  source: ParsedVideoSource | null;
  video?: VideoResource;
  title: string;
  onMeta: (meta: VideoMeta) => void;
}) => (
  <Box sx={{ mt: 2 }}>
    {/* The spec's player errors show in place of the video and in the alert banner. */}
    <VideoPreview
      provider={source?.provider ?? video!.provider}
      embedUrl={source?.embed_url ?? video!.embed_url}
      externalId={source ? source.external_id : video!.external_id}
      sourceUrl={source ? source.source_url : video!.source_url}
      title={title}
      onMeta={onMeta}
    />
  </Box>
);

/**
 * create-video ("Add or Edit Video"): choose a source tab, enter a URL or id, preview, save.
 * With `video` it opens in edit mode: title, URL and provider prefilled, provider and URL locked.
 */
export const CreateVideoModal = ({ video, close }: { video?: VideoResource; close: () => void }) => {
  const { user, subscription } = useSession();
  const alert = useAlert();
  const allowed = useMemo(() => allowedProviders(user, subscription), [user, subscription]);
  const initialProvider: VideoProvider = video?.provider ?? (allowed.includes('youtube') ? 'youtube' : (allowed[0] ?? 'youtube'));
  const [upgrade, setUpgrade] = useState<string | null>(null);
  // Edit mode changes only the title; a new video is checked as the server checks it.
  const form = useApiForm(video ? editVideoFormSchema : createVideoSchema, {
    provider: initialProvider,
    title: video?.title ?? '',
    url: video?.source ?? '',
  });
  const provider = form.watch('provider');
  const url = form.watch('url') ?? '';
  const title = form.watch('title') ?? '';
  const { typed, source, parseError } = useTypedSource(provider, url);
  const { meta, onMeta } = useVideoMeta(source, video);

  const selectProvider = (next: VideoProvider) => {
    // Selecting a provider resets the URL/ID and the upgrade message.
    form.setValue('provider', next);
    form.setValue('url', '');
    form.clearErrors();
    setUpgrade(allowed.includes(next) ? null : messageTemplates.providerNotInPlan(PROVIDER_LABELS[next]));
  };

  const save = useApiMutation({
    mutationFn: (body: Record<string, unknown>) => (video ? api.put(`videos/${video.id}`, body) : api.post('videos', body)),
    invalidates: [keys.videos.all],
    onSuccess: close,
  });

  const onSubmit = form.submit(async () => {
    const v = form.getValues();
    if (video) {
      await save.mutateAsync({ title: v.title });
      return;
    }
    if (!allowed.includes(v.provider)) {
      alert.error(messageTemplates.providerNotInPlan(PROVIDER_LABELS[v.provider]));
      return;
    }
    await save.mutateAsync(createBody(v, meta));
  });
  const { errors } = form.formState;
  const urlError = errors.url?.message ?? ('video_id' in errors ? errors.video_id?.message : undefined) ?? errors.provider?.message;

  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <ProviderTabs provider={provider} locked={Boolean(video)} onSelect={selectProvider} />
        {upgrade && (
          <Alert severity="warning" data-testid="upgrade-message">
            {upgrade}
          </Alert>
        )}
        <TextInput
          name="url"
          label={provider === 'generic' ? 'Video URL' : 'Video URL or ID'}
          placeholder={placeholderFor(provider)}
          value={url}
          onChange={(val) => form.setValue('url', val, { shouldValidate: form.formState.isSubmitted })}
          error={urlError ?? (url === typed ? parseError : undefined)}
          disabled={Boolean(video) || Boolean(upgrade)}
          requiredMark
          autoFocus
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <FormTextInput control={form.control} name="title" label="Title" placeholder={meta.title} />
        {(source || video) && <SourcePreview source={source} video={video} title={title || meta.title || 'Video preview'} onMeta={onMeta} />}
      </DialogContent>
      <FormDialogActions onCancel={close} label="Save" disabled={form.submitting || Boolean(upgrade) || (!video && !source)} />
    </Box>
  );
};
