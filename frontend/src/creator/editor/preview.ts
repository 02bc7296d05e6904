import { rootVideo, type CustomizationResource } from '@branchify/shared';
import type { PlayerPayload, PlayerVideo } from '@branchify/player';
import type { EditorDocument } from './document-store';

/**
 * The player payload for playing a funnel inside the app (the editor's preview, the funnel's
 * preview page): built from the owner's own copy, so it plays whatever the public page would
 * refuse (no plan, a suspended owner) and never reaches the analytics. Videos that have left the
 * library are skipped, as the public page skips them.
 */
export const previewPayload = (
  funnel: { identifier: string; version?: number },
  doc: EditorDocument,
  app: Pick<CustomizationResource, 'app_name' | 'app_favicon_url' | 'app_logo_url' | 'app_color_scheme'>,
): PlayerPayload => {
  const videos: PlayerVideo[] = doc.videos.flatMap((v) =>
    v.video
      ? [
          {
            editor_id: v.editor_id,
            title: v.video.title,
            provider: v.video.provider,
            external_id: v.video.external_id,
            embed_url: v.video.embed_url,
            source_url: v.video.source_url,
            thumbnail: v.video.thumbnail,
            duration: v.video.duration,
            elements: v.elements,
            captions: v.video.captions ?? [],
          },
        ]
      : [],
  );
  return {
    identifier: funnel.identifier,
    title: doc.title,
    description: doc.description,
    settings: doc.settings,
    variables: doc.variables,
    version: funnel.version ?? 1,
    root_editor_id: rootVideo(videos)?.editor_id ?? null,
    videos,
    app: { name: app.app_name, favicon_url: app.app_favicon_url, logo_url: app.app_logo_url, color_scheme: app.app_color_scheme },
  };
};
