import { Readable } from 'node:stream';

/**
 * A response body that sends `chunks` as they are made, each one only once the client has taken the
 * ones before (backpressure), so memory stays bounded however long the body is. The first chunk is
 * made before answering: a failure there (the database gone) is an ordinary error answer, not a
 * cut-off download. A client that goes away stops the generator.
 */
export const textStream = async (chunks: AsyncGenerator<string, void, undefined>): Promise<Readable> => {
  const first = await chunks.next();
  async function* all(): AsyncGenerator<string, void, undefined> {
    if (first.done) return;
    yield first.value;
    yield* chunks;
  }
  return Readable.from(all(), { objectMode: false });
};
