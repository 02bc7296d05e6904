/**
 * Funnel documents as heavy as the limits allow, as the red team sent them: many videos, each with
 * branch elements whose buttons carry distinct conditions and assignments (every text parsed and
 * type-checked), grown until the JSON reaches the size asked for.
 */

const VARIABLES = [
  { name: 'score', type: 'number', default: 0, fromUrl: false },
  { name: 'name', type: 'text', default: '', fromUrl: false },
  { name: 'liked', type: 'yesno', default: false, fromUrl: false },
];

/** A condition of about 250 characters, different for every `n`. */
const condition = (n: number) =>
  `(score >= ${n} and score <= ${n + 1000} and not liked) or (name == "v${n}" and score != ${n * 3}) or (score > ${n + 7} and name != "w${n}" and liked) or (score < ${n + 11} and name == "x${n}")`;

const branchElement = (id: string, on: string, to: string, n: number, buttons: number) => ({
  id,
  type: 'branch',
  belongsTo: on,
  showAt: 1,
  hideAt: 8,
  when: condition(n),
  data: {
    branches: Array.from({ length: buttons }, (_, b) => ({
      id: `${id}-b${b}`,
      name: `Choice ${b}`,
      type: 'standard',
      onclick: 'branch',
      video: to,
      when: condition(n * 31 + b),
      set: ['score + 1', `name = "n${n}-${b}"`, 'liked = yes'],
      standard: { text: `Go on ${b}` },
    })),
    settings: { pauseVideo: { enabled: true, duration: 12 }, inactionWhen: condition(n + 5) },
  },
});

/** A document over `videoIds` (repeating them) of at least `bytes` bytes of JSON. */
export const heavyDocument = (videoIds: readonly number[], bytes: number, videos = 40, title = 'Heavy funnel') => {
  const editorIds = Array.from({ length: videos }, (_, v) => `v${v}`);
  const doc = {
    title,
    description: 'As heavy as the limits allow',
    settings: { enable_resume_play: true },
    variables: VARIABLES,
    videos: editorIds.map((editorId, v) => ({ id: videoIds[v % videoIds.length]!, editor_id: editorId, elements: [] as unknown[] })),
  };
  let n = 0;
  let size = JSON.stringify(doc).length;
  while (size < bytes) {
    const v = n % videos;
    const element = branchElement(`e${n}`, editorIds[v]!, editorIds[(v + 1) % videos]!, n, 8);
    doc.videos[v]!.elements.push(element);
    size += JSON.stringify(element).length + 1;
    n += 1;
  }
  return doc;
};

/** The same heavy funnel as an export file (library entries by reference), as Import reads it. */
export const heavyExportFile = (bytes: number, videos = 200) => {
  const doc = heavyDocument([1], bytes, videos);
  return {
    format: 'branchify.funnel',
    version: 2,
    funnel: { ...doc, videos: doc.videos.map(({ id: _id, ...rest }) => ({ ...rest, video: 'video-1' })) },
    library: [{ ref: 'video-1', provider: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', title: 'Intro', duration: 30 }],
    images: [],
  };
};
