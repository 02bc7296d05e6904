import type { FunnelLogic } from './logic-hooks';
import type { Branch, BranchElement, FunnelElement } from './types';

/**
 * Where conditions meet the runtime: whether an element, a branch or an inaction path applies now,
 * and an element as the viewer sees it (hidden branches left out, `{{name}}` filled in as text).
 * Without the logic loaded, a condition never holds (nothing conditional shows by mistake).
 */
const holds = (logic: FunnelLogic | null, condition: string | undefined): boolean => (condition ? (logic?.holds(condition) ?? false) : true);

export const elementApplies = (element: FunnelElement, logic: FunnelLogic | null): boolean => holds(logic, element.when);

export const branchApplies = (branch: Branch, logic: FunnelLogic | null): boolean => holds(logic, branch.when);

export const inactionApplies = (element: BranchElement, logic: FunnelLogic | null): boolean => holds(logic, element.data.settings?.inactionWhen);

const presented = new WeakMap<FunnelElement, { version: number; element: FunnelElement }>();

/** The element as shown for the current values (the same object while they do not change). */
export const presentElement = (element: FunnelElement, logic: FunnelLogic | null): FunnelElement => {
  if (!logic) return element;
  const hit = presented.get(element);
  if (hit && hit.version === logic.version) return hit.element;
  const shown: FunnelElement =
    element.type === 'text'
      ? { ...element, data: { ...element.data, title: logic.text(element.data.title) } }
      : {
          ...element,
          data: {
            ...element.data,
            prompt: { ...element.data.prompt, text: logic.text(element.data.prompt?.text ?? '') },
            branches: element.data.branches
              .filter((b) => branchApplies(b, logic))
              .map((b) => ({ ...b, standard: { ...b.standard, text: logic.text(b.standard?.text ?? '') } })),
          },
        };
  presented.set(element, { version: logic.version, element: shown });
  return shown;
};
