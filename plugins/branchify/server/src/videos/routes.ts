import { route } from '../routes/define';

const USER_AREA = { verified: true };

export default [
  route('GET', '/videos', 'videos.index', { auth: USER_AREA }),
  route('POST', '/videos', 'videos.create', { auth: USER_AREA }),
  route('PUT', '/videos/:id', 'videos.update', { auth: USER_AREA }),
  route('DELETE', '/videos/:id', 'videos.destroy', { auth: USER_AREA }),
];
