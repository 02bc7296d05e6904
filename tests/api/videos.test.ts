import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { baseUrl, client } from './support/http';
import { addVideo, createFunnel, freePlan, subscribedUser, twoVideoDocument } from './support/content';
import { verifiedUser, type Session } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();
let user: Session;

beforeAll(async () => {
  user = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
});

describe('POST /api/videos', () => {
  it.each([
    ['youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PL1', 'dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['youtube', 'https://youtu.be/dQw4w9WgXcQ?si=x', 'dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['youtube', 'dQw4w9WgXcQ', 'dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['vimeo', 'https://vimeo.com/76979871', '76979871', 'https://player.vimeo.com/video/76979871'],
    ['vimeo', '76979871', '76979871', 'https://player.vimeo.com/video/76979871'],
    ['adilo', 'https://adilo.bigcommand.com/watch/Xy12AbCd', 'Xy12AbCd', 'https://adilo.bigcommand.com/e/Xy12AbCd'],
  ])("adds a %s video from '%s': 'Video added successfully'", async (provider, url, externalId, embedUrl) => {
    const res = await user.http.post('/api/videos', { provider, url }, user.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Video added successfully' });
    expect(res.body.data).toMatchObject({ provider, external_id: externalId, embed_url: embedUrl, size: 0, total_funnels: 0 });
    const row = await suite.db('branchify_videos').where({ id: res.body.data.id }).first();
    expect(row).toMatchObject({ owner_id: user.id, provider, external_id: externalId });
  });

  it('names an untitled video readably (provider and id), and keeps the title and metadata the client read', async () => {
    const yt = await user.http.post('/api/videos', { provider: 'youtube', url: 'dQw4w9WgXcQ' }, user.token);
    expect(yt.body.data.title).toBe('YouTube video dQw4w9WgXcQ');
    const adilo = await user.http.post('/api/videos', { provider: 'adilo', url: 'https://adilo.bigcommand.com/watch/Qq12AbCd' }, user.token);
    expect(adilo.body.data.title).toBe('Adilo video Qq12AbCd');
    const titled = await user.http.post(
      '/api/videos',
      { provider: 'generic', url: 'https://cdn.example.com/a.mp4', title: 'Launch', thumbnail: 'https://cdn.example.com/a.jpg', duration: 93.5 },
      user.token,
    );
    expect(titled.body.data).toMatchObject({
      title: 'Launch',
      thumbnail: 'https://cdn.example.com/a.jpg',
      duration: 93.5,
      source_url: 'https://cdn.example.com/a.mp4',
      external_id: null,
    });
  });

  it.each([
    ['youtube', 'https://www.youtube.com/watch?v=short', 'invalid video id or url'],
    ['youtube', 'https://evil.example/watch?v=dQw4w9WgXcQ', 'invalid video id or url'],
    ['vimeo', 'https://vimeo.com/channels/staffpicks', 'invalid video id or url'],
    ['generic', 'javascript:alert(1)', 'invalid url'],
    ['generic', 'ftp://files.example.com/a.mp4', 'invalid url'],
    ['adilo', 'https://example.com/watch/abc', 'Please enter an Adilo watch URL, such as https://adilo.bigcommand.com/watch/AbCdEf12.'],
  ])('refuses %s input %s with 422', async (provider, url, message) => {
    const res = await user.http.post('/api/videos', { provider, url }, user.token);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ url: [message] });
  });

  it('requires a known provider and something to parse', async () => {
    const res = await user.http.post('/api/videos', { provider: 'dailymotion', url: 'x' }, user.token);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['provider']);
    const empty = await user.http.post('/api/videos', { provider: 'youtube', url: '  ' }, user.token);
    expect(empty.body.errors).toEqual({ url: ['Please enter a video URL or ID.'] });
  });

  it("limits video sources by the plan with the spec's message; admins may use all", async () => {
    const youtubeOnly = await subscribedUser(suite.admin, (await freePlan(suite.admin, { video_sources: ['youtube'] })).id);
    const res = await youtubeOnly.http.post('/api/videos', { provider: 'vimeo', url: '76979871' }, youtubeOnly.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, message: 'Please upgrade your plan to use video source.' });
    expect((await youtubeOnly.http.post('/api/videos', { provider: 'youtube', url: 'dQw4w9WgXcQ' }, youtubeOnly.token)).status).toBe(201);
    expect(
      (await suite.admin.http.post('/api/videos', { provider: 'adilo', url: 'https://adilo.bigcommand.com/watch/Ad12AbCd' }, suite.admin.token)).status,
    ).toBe(201);
  });

  it('without a subscription only YouTube is allowed', async () => {
    const none = await verifiedUser();
    expect((await none.http.post('/api/videos', { provider: 'youtube', url: 'dQw4w9WgXcQ' }, none.token)).status).toBe(201);
    const vimeo = await none.http.post('/api/videos', { provider: 'vimeo', url: '76979871' }, none.token);
    expect(vimeo.status).toBe(403);
    expect(vimeo.body.message).toBe('Please upgrade your plan to use video source.');
  });

  it('is for signed-in, verified users', async () => {
    expect((await client().post('/api/videos', { provider: 'youtube', url: 'dQw4w9WgXcQ' })).body).toEqual({ success: false, message: 'Unauthenticated.' });
  });
});

describe('GET/PUT/DELETE /api/videos', () => {
  it('lists only my videos, newest first, paged and searchable, with total_funnels', async () => {
    const me = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const other = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const first = await addVideo(me, { title: 'Alpha intro' });
    const second = await addVideo(me, { title: 'Beta pitch' });
    await addVideo(other, { title: 'Alpha of someone else' });
    const funnel = await createFunnel(me);
    expect((await me.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(first.id, second.id), me.token)).status).toBe(200);

    const list = await me.http.get('/api/videos?page=1', me.token);
    expect(list.status).toBe(200);
    expect(list.body.data.meta).toMatchObject({ total: 2, current_page: 1, last_page: 1 });
    expect(list.body.data.data.map((v: { title: string }) => v.title)).toEqual(['Beta pitch', 'Alpha intro']);
    expect(list.body.data.data.map((v: { total_funnels: number }) => v.total_funnels)).toEqual([1, 1]);

    const search = await me.http.get('/api/videos?search=alpha', me.token);
    expect(search.body.data.data.map((v: { title: string }) => v.title)).toEqual(['Alpha intro']);
    const paged = await me.http.get('/api/videos?page=2&per_page=1', me.token);
    expect(paged.body.data.data.map((v: { title: string }) => v.title)).toEqual(['Alpha intro']);
    expect(paged.body.data.meta).toMatchObject({ total: 2, current_page: 2, last_page: 2, per_page: 1 });
  });

  it("renames (title only): 'Video updated successfully'", async () => {
    const video = await addVideo(user);
    const res = await user.http.put(`/api/videos/${video.id}`, { title: 'Renamed', provider: 'vimeo', embed_url: 'https://evil.example' }, user.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Video updated successfully', data: { title: 'Renamed', provider: 'youtube', embed_url: video.embed_url } });
    expect((await user.http.put(`/api/videos/${video.id}`, { title: '' }, user.token)).body.errors).toEqual({ title: ['The title field is required.'] });
  });

  it("another tenant's video is a 404 for show, rename and delete", async () => {
    const other = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const video = await addVideo(other);
    expect((await user.http.put(`/api/videos/${video.id}`, { title: 'Mine now' }, user.token)).status).toBe(404);
    expect((await user.http.delete(`/api/videos/${video.id}`, user.token)).status).toBe(404);
    expect(await suite.db('branchify_videos').where({ id: video.id }).first()).toMatchObject({ owner_id: other.id });
    expect((await user.http.delete('/api/videos/abc', user.token)).status).toBe(404);
  });

  it("deletes an unused video: 'Video deleted'; refuses one a funnel uses and names the funnel", async () => {
    const a = await addVideo(user);
    const b = await addVideo(user);
    const unused = await addVideo(user);
    const funnel = await createFunnel(user, { title: 'Spring launch' });
    await user.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id, 'Spring launch'), user.token);

    const refused = await user.http.delete(`/api/videos/${a.id}`, user.token);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("This video is used in the funnel 'Spring launch'. Remove it from that funnel before deleting it.");
    expect(await suite.db('branchify_videos').where({ id: a.id }).first()).toBeDefined();

    const res = await user.http.delete(`/api/videos/${unused.id}`, user.token);
    expect(res.body).toEqual({ success: true, message: 'Video deleted', data: null });
    expect(await suite.db('branchify_videos').where({ id: unused.id }).first()).toBeUndefined();
  });
});

describe('PUT /api/videos/{id}/poster', () => {
  const UPLOADS_DIR = path.join(__dirname, '..', '..', 'cms', 'public', 'uploads');
  const onDisk = (url: string) => fs.existsSync(path.join(UPLOADS_DIR, path.basename(url)));
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPQVz/3H4QZYAwARtAIja84x1MAAAAASUVORK5CYII=',
    'base64',
  );
  const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>';
  const poster = (session: Session, id: number | string, content?: Buffer, name = 'frame.png') => {
    const req = request(baseUrl())
      .put(`/api/videos/${id}/poster`)
      .set('X-Forwarded-For', session.http.ip)
      .set('Accept', 'application/json')
      .set('Authorization', `Bearer ${session.token}`);
    return content ? req.attach('image', content, name) : req.field('nothing', 'here');
  };

  it("stores the owner's drawn frame as the video's poster, replacing (and deleting) the one before", async () => {
    const video = await addVideo(user, { provider: 'generic', url: 'https://media.example.test/clip.webm' });
    expect((await suite.db('branchify_videos').where({ id: video.id }).first()).thumbnail).toBeNull();
    const first = await poster(user, video.id, PNG);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, message: 'Video updated successfully', data: { id: video.id, provider: 'generic' } });
    const url = first.body.data.thumbnail as string;
    expect(url).toMatch(/^\/uploads\/[\w-]+\.png$/);
    expect(onDisk(url)).toBe(true);
    const listed = await user.http.get('/api/videos?per_page=100', user.token);
    expect(listed.body.data.data.find((v: { id: number }) => v.id === video.id).thumbnail).toBe(url);

    const second = await poster(user, video.id, PNG);
    expect(second.status).toBe(200);
    expect(second.body.data.thumbnail).not.toBe(url);
    expect(onDisk(url)).toBe(false);

    // Deleting the video deletes its poster.
    expect((await user.http.delete(`/api/videos/${video.id}`, user.token)).status).toBe(200);
    expect(onDisk(second.body.data.thumbnail as string)).toBe(false);
  });

  it('takes exactly one raster image: none, an SVG or bytes that are not an image are refused', async () => {
    const video = await addVideo(user, { provider: 'generic', url: 'https://media.example.test/refused.webm' });
    const none = await poster(user, video.id);
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual({ image: ['Please choose an image to upload.'] });
    const svg = await poster(user, video.id, Buffer.from(SVG), 'frame.svg');
    expect(svg.status).toBe(422);
    expect(svg.body.errors).toEqual({ image: ['invalid file type, please upload'] });
    const fake = await poster(user, video.id, Buffer.from('not a picture at all'), 'frame.png');
    expect(fake.status).toBe(422);
    expect(fake.body.errors).toEqual({ image: ['invalid file type, please upload'] });
    expect((await suite.db('branchify_videos').where({ id: video.id }).first()).thumbnail).toBeNull();
  });

  it("another tenant's video is a 404, and its poster is left as it was", async () => {
    const other = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const video = await addVideo(other, { provider: 'generic', url: 'https://media.example.test/theirs.webm' });
    const res = await poster(user, video.id, PNG);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: expect.any(String) });
    expect(await suite.db('branchify_videos').where({ id: video.id }).first()).toMatchObject({ owner_id: other.id, thumbnail: null });
    expect(await suite.db('branchify_creator_images').where({ owner_id: other.id })).toEqual([]);
  });
});
