import { funnelDocumentSchema, type FunnelVariable } from '@branchify/shared';
import { createLogic, startLogic } from '../../player/src/logic';
import { FunnelRuntime, type Command } from '../../player/src/runtime/machine';
import { needsLogic } from '../../player/src/runtime/logic-hooks';
import type { BranchElement, PlayerPayload, TextElement } from '../../player/src/runtime/types';

const VARIABLES: FunnelVariable[] = [
  { name: 'name', type: 'text', default: 'friend', fromUrl: true },
  { name: 'score', type: 'number', default: 0, fromUrl: false },
];

/** A funnel read through the save's own schema: a greeting, a quiz element and a hidden-until-earned branch. */
const funnel = (): PlayerPayload => {
  const doc = funnelDocumentSchema.parse({
    title: 'Quiz',
    variables: VARIABLES,
    videos: [
      {
        id: 1,
        editor_id: 'intro',
        elements: [
          { id: 'hello', type: 'text', showAt: 0, hideAt: 60, data: { title: 'Hello {{name}}!' } },
          {
            id: 'quiz',
            type: 'branch',
            showAt: 5,
            hideAt: 60,
            data: {
              branches: [
                // Answering jumps back before the question, which comes again.
                { id: 'right', onclick: 'timestamp', timestamp: { seconds: 1 }, set: ['score + 1'], standard: { text: 'Right ({{score}})' } },
                { id: 'bonus', onclick: 'branch', video: 'bonus', when: 'score >= 2' },
              ],
            },
          },
          { id: 'secret', type: 'text', showAt: 0, hideAt: 60, when: 'name == "Ada"', data: { title: 'Welcome back, Ada' } },
        ],
      },
      { id: 2, editor_id: 'bonus', elements: [] },
    ],
  });
  return {
    identifier: 'ref',
    title: doc.title,
    description: '',
    settings: { enable_resume_play: false },
    variables: doc.variables,
    version: 1,
    root_editor_id: 'intro',
    videos: doc.videos.map((v) => ({
      editor_id: v.editor_id,
      title: v.editor_id,
      provider: 'direct',
      external_id: null,
      embed_url: null,
      source_url: null,
      thumbnail: null,
      duration: 60,
      elements: v.elements,
    })),
    app: { name: 'x', favicon_url: null, logo_url: null, color_scheme: null },
  };
};

const setup = (search = '') => {
  const payload = funnel();
  const logic = search === null ? createLogic(payload.variables!) : startLogic(payload.variables!, search);
  const runtime = new FunnelRuntime(payload, { origin: 'https://x.example', logic });
  const commands: Command[] = [];
  runtime.onCommand((c) => commands.push(c));
  runtime.timeUpdate(6, false);
  const shown = (id: string) => runtime.getState().shown.find((s) => s.element.id === id && !s.fading)?.element;
  const buttons = () => (shown('quiz') as BranchElement).data.branches.map((b) => b.id);
  return { runtime, logic, commands, shown, buttons };
};

describe('the player with variables and conditions', () => {
  it('loads the logic only for a funnel that uses it', () => {
    expect(needsLogic(funnel())).toBe(true);
    expect(needsLogic({ ...funnel(), variables: [], videos: [] })).toBe(false);
  });

  it('greets the viewer by the name the link gives, as text', () => {
    const { shown } = setup('?name=Ada&score=99');
    expect((shown('hello') as TextElement).data.title).toBe('Hello Ada!');
    expect(shown('secret')).toBeDefined();
    // score is not allowed from the link.
    expect((shown('quiz') as BranchElement).data.branches[0]!.standard.text).toBe('Right (0)');
    const hostile = setup(`?name=${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
    expect((hostile.shown('hello') as TextElement).data.title).toBe('Hello <img src=x onerror=alert(1)>!');
    expect(hostile.shown('secret')).toBeUndefined();
  });

  it('shows a branch only after two score-raising clicks, and records the variables with each click', () => {
    const { runtime, commands, buttons } = setup('');
    expect(buttons()).toEqual(['right']);
    // A hidden branch cannot be clicked.
    expect(runtime.click('quiz', 'bonus')).toEqual({ kind: 'none' });
    runtime.click('quiz', 'right');
    runtime.timeUpdate(6, false);
    expect(buttons()).toEqual(['right']);
    runtime.click('quiz', 'right');
    runtime.timeUpdate(6, false);
    expect(buttons()).toEqual(['right', 'bonus']);
    const clicks = commands.flatMap((c) => (c.type === 'interaction' ? [c.interaction] : []));
    expect(clicks.map((c) => c.variables)).toEqual([
      { name: 'friend', score: 1 },
      { name: 'friend', score: 2 },
    ]);
    expect(runtime.click('quiz', 'bonus')).toEqual({ kind: 'branch', editorId: 'bonus' });
  });

  it('takes values from the embedding page (declared ones, typed) and shows what they unlock', () => {
    const { logic, shown } = setup('');
    logic.set({ name: 'Ada', score: 'lots', unknown: 1 });
    expect(logic.values()).toEqual({ name: 'Ada', score: 0 });
    expect(shown('secret')).toBeDefined();
  });
});
