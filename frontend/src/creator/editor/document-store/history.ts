import type { EditorDocument } from './types';

const HISTORY = 100;
/** Edits of the same field in a row within this time are one undo step (typing a title). */
const COALESCE_MS = 1500;

/**
 * The undo and redo stacks: at most 100 steps back; a run of edits with the same key within
 * 1.5 s shares one step; a new edit clears what could be redone.
 */
export class UndoHistory {
  private past: EditorDocument[] = [];
  private future: EditorDocument[] = [];
  private lastEdit: { key: string; at: number } | null = null;

  get canUndo(): boolean {
    return this.past.length > 0;
  }

  get canRedo(): boolean {
    return this.future.length > 0;
  }

  /** An edit replaced `before` at time `at`. */
  record(before: EditorDocument, key: string | undefined, at: number): void {
    const coalesce = key !== undefined && this.lastEdit?.key === key && at - this.lastEdit.at < COALESCE_MS;
    if (!coalesce) {
      this.past.push(before);
      if (this.past.length > HISTORY) this.past.shift();
    }
    this.future = [];
    this.lastEdit = key ? { key, at } : null;
  }

  /** The document one step back from `current` (which becomes redoable), or undefined. */
  undo(current: EditorDocument): EditorDocument | undefined {
    return this.step(this.past, this.future, current);
  }

  /** The document one step forward from `current` (which becomes undoable), or undefined. */
  redo(current: EditorDocument): EditorDocument | undefined {
    return this.step(this.future, this.past, current);
  }

  /** The next edit starts a step of its own, whatever its key. */
  breakRun(): void {
    this.lastEdit = null;
  }

  private step(from: EditorDocument[], to: EditorDocument[], current: EditorDocument): EditorDocument | undefined {
    const target = from.pop();
    if (!target) return undefined;
    to.push(current);
    this.lastEdit = null;
    return target;
  }
}
