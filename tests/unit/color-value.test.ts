import { funnelDocumentSchema } from '@branchify/shared';
import { formatColor, parseColor } from '../../frontend/src/shared/inputs/color-value';

describe('colours with alpha (the editor picker)', () => {
  it('reads hex in its four lengths and rgb()/rgba(), and refuses anything else', () => {
    expect(parseColor('#fff')).toEqual({ r: 255, g: 255, b: 255, a: 1 });
    expect(parseColor('#f008')).toEqual({ r: 255, g: 0, b: 0, a: 0.53 });
    expect(parseColor('#2f27ce')).toEqual({ r: 47, g: 39, b: 206, a: 1 });
    expect(parseColor('#ff000080')).toEqual({ r: 255, g: 0, b: 0, a: 0.5 });
    expect(parseColor(' rgba(10, 20, 30, .25) ')).toEqual({ r: 10, g: 20, b: 30, a: 0.25 });
    expect(parseColor('rgb(1,2,3)')).toEqual({ r: 1, g: 2, b: 3, a: 1 });
    for (const bad of ['red', '#12', '#12345', 'rgba(256, 0, 0, 1)', 'rgba(0, 0, 0, 2)', 'rgba(0,0,0', 'url(x)']) expect(parseColor(bad)).toBeNull();
  });

  it('stores hex when opaque and rgba() otherwise, in a form the funnel schema accepts', () => {
    expect(formatColor({ r: 47, g: 39, b: 206, a: 1 })).toBe('#2f27ce');
    expect(formatColor({ r: 255, g: 0, b: 0, a: 0.5 })).toBe('rgba(255, 0, 0, 0.5)');
    expect(formatColor({ r: 0, g: 0, b: 0, a: 0 })).toBe('rgba(0, 0, 0, 0)');
    for (const color of ['#2f27ce', 'rgba(255, 0, 0, 0.5)', 'rgba(0, 0, 0, 0)', 'rgba(1, 2, 3, 0.05)']) {
      const doc = {
        title: 'x',
        settings: { enable_resume_play: false },
        videos: [{ id: 1, editor_id: 'v', elements: [{ id: 't', type: 'text', showAt: 0, hideAt: 1, data: { title: 'x', color } }] }],
      };
      const parsed = funnelDocumentSchema.safeParse(doc);
      expect(parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe('');
    }
  });
});
