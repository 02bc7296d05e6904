import type { Session } from '../../api/support/users';
import { addVideo, createFunnel } from '../../api/support/content';
import { hostedMediaUrl } from './media-server';

/** A generic-provider library video for each name, then a funnel saved with `videos(ids)`. */
export const publishFunnel = async (
  owner: Session,
  videoUrls: Record<string, string>,
  build: (ids: Record<string, number>) => { title?: string; settings?: { enable_resume_play: boolean }; variables?: unknown[]; videos: unknown[] },
): Promise<{ id: number; reference: string }> => {
  const ids: Record<string, number> = {};
  for (const [name, url] of Object.entries(videoUrls)) ids[name] = (await addVideo(owner, { provider: 'generic', url, title: name })).id;
  const funnel = await createFunnel(owner);
  const doc = build(ids);
  const res = await owner.http.put(
    `/api/funnels/${funnel.id}`,
    { title: doc.title ?? 'Player test', settings: doc.settings ?? { enable_resume_play: false }, variables: doc.variables ?? [], videos: doc.videos },
    owner.token,
  );
  if (res.status !== 200) throw new Error(`funnel save failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: funnel.id, reference: funnel.identifier };
};

export const textEl = (id: string, on: string, showAt: number, hideAt: number, title: string) => ({
  id,
  type: 'text',
  belongsTo: on,
  showAt,
  hideAt,
  position: { top: 20, left: 20 },
  player: { width: 640, height: 360 },
  data: { title },
});

export const branchEl = (
  id: string,
  on: string,
  showAt: number,
  hideAt: number,
  branches: Array<Record<string, unknown>>,
  settings: Record<string, unknown> = {},
  prompt = 'Where next?',
) => ({
  id,
  type: 'branch',
  belongsTo: on,
  showAt,
  hideAt,
  position: { top: 120, left: 40 },
  player: { width: 640, height: 360 },
  data: { branches, settings, prompt: { text: prompt } },
});

/**
 * A saved funnel of two hosted videos, `{key}-first` and `{key}-second` (titled "first" and
 * "second"), the first with one branch element whose button "On" leads to the second.
 */
export const twoVideoFunnel = (owner: Session, key: string, title: string) =>
  publishFunnel(owner, { first: hostedMediaUrl(`${key}-1`), second: hostedMediaUrl(`${key}-2`) }, (ids) => ({
    title,
    videos: [
      {
        id: ids.first,
        editor_id: `${key}-first`,
        elements: [
          branchEl(`${key}-b`, `${key}-first`, 0, 5, [{ id: `${key}-b1`, name: 'On', onclick: 'branch', video: `${key}-second`, standard: { text: 'On' } }]),
        ],
      },
      { id: ids.second, editor_id: `${key}-second`, elements: [] },
    ],
  }));
