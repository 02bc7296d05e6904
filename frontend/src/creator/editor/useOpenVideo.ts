import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';

/** Where the video editor opens: the time, and whether to play at once. */
export type EditorStart = { time: number; autoplay: boolean };

/** Which video's editor is open, kept in the address (`?video=`), and where it starts. */
export const useOpenVideo = () => {
  const [start, setStart] = useState<EditorStart | undefined>(undefined);
  const [params, setParams] = useSearchParams();
  const open = (editorId: string) => {
    setStart(undefined);
    setParams({ video: editorId });
  };
  return { openVideo: params.get('video'), start, setStart, setParams, open };
};
