/**
 * Rules about a funnel's document that every side applies alike (plain functions, no schema
 * library, so the player bundle can use them).
 */
/** Branch elements in a funnel: what max_branch_per_funnel counts. */
export const countBranchElements = (videos: ReadonlyArray<{ elements: ReadonlyArray<{ type: string }> }>): number =>
  videos.reduce((n, video) => n + video.elements.filter((e) => e.type === 'branch').length, 0);

/** The root video: the first video no other video's branch points to, otherwise the first. */
export const rootVideo = <V extends { editor_id: string; elements: ReadonlyArray<{ type: string; data: unknown }> }>(videos: readonly V[]): V | null => {
  const targets = new Set<string>();
  for (const video of videos) {
    for (const element of video.elements) {
      if (element.type !== 'branch') continue;
      for (const branch of (element.data as { branches?: Array<{ onclick?: string; video?: string | null }> }).branches ?? []) {
        if (branch.onclick === 'branch' && branch.video && branch.video !== video.editor_id) targets.add(branch.video);
      }
    }
  }
  return videos.find((v) => !targets.has(v.editor_id)) ?? videos[0] ?? null;
};
