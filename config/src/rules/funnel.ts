/**
 * Rules about a funnel's document that every side applies alike (plain functions, no schema
 * library, so the player bundle can use them).
 */
type CountableVideos = ReadonlyArray<{ elements: ReadonlyArray<{ type: string }> }>;

/**
 * Elements of one type across a funnel. max_branch_per_funnel caps branch elements and, counted
 * on their own, text elements: each type may reach the limit.
 */
export const countElements = (videos: CountableVideos, type: 'branch' | 'text'): number =>
  videos.reduce((n, video) => n + video.elements.filter((e) => e.type === type).length, 0);

/** Branch elements in a funnel: what max_branch_per_funnel counts. */
export const countBranchElements = (videos: CountableVideos): number => countElements(videos, 'branch');

/** Text elements in a funnel: held to max_branch_per_funnel separately from the branches. */
export const countTextElements = (videos: CountableVideos): number => countElements(videos, 'text');

type BranchingVideo = { editor_id: string; elements: ReadonlyArray<{ type: string; data: unknown }> };

/** The editor_ids some other video's branch leads to. */
export const branchTargets = (videos: readonly BranchingVideo[]): Set<string> => {
  const targets = new Set<string>();
  for (const video of videos) {
    for (const element of video.elements) {
      if (element.type !== 'branch') continue;
      for (const branch of (element.data as { branches?: Array<{ onclick?: string; video?: string | null }> }).branches ?? []) {
        if (branch.onclick === 'branch' && branch.video && branch.video !== video.editor_id) targets.add(branch.video);
      }
    }
  }
  return targets;
};

/** The root video: the first video no other video's branch points to, otherwise the first. */
export const rootVideo = <V extends BranchingVideo>(videos: readonly V[]): V | null => {
  const targets = branchTargets(videos);
  return videos.find((v) => !targets.has(v.editor_id)) ?? videos[0] ?? null;
};

/** The editor_ids of videos with no branch leading to another video: the funnel's ends. */
export const endingVideos = (videos: ReadonlyArray<{ editor_id: string; elements: ReadonlyArray<{ type: string; data: unknown }> }>): Set<string> => {
  const ends = new Set<string>();
  for (const video of videos) {
    const onward = video.elements.some(
      (element) =>
        element.type === 'branch' &&
        ((element.data as { branches?: Array<{ onclick?: string; video?: string | null }> }).branches ?? []).some(
          (branch) => branch.onclick === 'branch' && Boolean(branch.video) && branch.video !== video.editor_id,
        ),
    );
    if (!onward) ends.add(video.editor_id);
  }
  return ends;
};
