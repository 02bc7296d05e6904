import { CONTENT_LIMITS } from '@branchify/shared';
import { api } from '../../shared/api';

/** A branch or overlay image, at most 2000 KB. */
export const BRANCH_IMAGE_MAX_KB: number = CONTENT_LIMITS.branchImageKb;

/** Uploads an image the creator owns; resolves with the URL the funnel document stores. */
export const uploadImage = async (file: File): Promise<string> => {
  const body = new FormData();
  body.append('image', file);
  return (await api.post<{ url: string }>('uploads/images', body)).data.url;
};
