import { versionWatch } from '../../plugins/branchify/server/src/operations/cache-versions';

/** A watch over a number the test moves, looking on every check, counting the drops it causes. */
const watched = () => {
  const state = { version: 1, drops: 0 };
  const watch = versionWatch(
    () => Promise.resolve(state.version),
    () => 0,
    () => (state.drops += 1),
  );
  return { state, watch };
};

describe('the player cache version watch', () => {
  it('drops the copies when another process moves the number', async () => {
    const { state, watch } = watched();
    await watch.check();
    state.version = 2;
    await watch.check();
    expect(state.drops).toBe(1);
  });

  it("keeps the copies when the move is this process's own bump to the next number", async () => {
    const { state, watch } = watched();
    await watch.check();
    state.version = 2;
    watch.adopt(2);
    await watch.check();
    expect(state.drops).toBe(0);
  });

  it('still drops them when another process moved the number between this one’s commit and its bump', async () => {
    const { state, watch } = watched();
    await watch.check();
    state.version = 3; // another process's bump (2), then this one's (3)
    watch.adopt(3);
    await watch.check();
    expect(state.drops).toBe(1);
  });
});
