import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileUnder, statFile } from '../../plugins/branchify/server/src/http/static-file';

/**
 * The one lookup every static route makes: a name no file can have is an answer ('impossible'),
 * never an exception, whichever way the file system would have refused it.
 */
describe('a file looked up under a static root', () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'static-file-'));
    fs.mkdirSync(path.join(root, 'app'));
    fs.writeFileSync(path.join(root, 'app', 'index.html'), '<!doctype html>');
    fs.writeFileSync(path.join(root, 'outside.txt'), 'x');
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('is found when it is a regular file under the root', () => {
    const found = fileUnder(root, 'app/index.html');
    expect(typeof found).toBe('object');
    expect(found).toMatchObject({ file: path.join(root, 'app', 'index.html') });
    expect(fileUnder(root, 'app/./x/../index.html')).toMatchObject({ file: path.join(root, 'app', 'index.html') });
  });

  it('is absent when nothing or a folder is there', () => {
    for (const name of ['app/nope.html', 'app', '', 'app/index.html%00', 'app/index.html%2500'])
      expect({ name, why: fileUnder(root, name) }).toEqual({ name, why: 'absent' });
  });

  it('is impossible for a NUL, a path through a file, over-long names and paths, backslashes and a way out of the root', () => {
    const names = [
      'app/index.html\0',
      '\0',
      'app/\0/index.html',
      'app/index.html/x',
      'app/index.html/x/y.js',
      'a'.repeat(256),
      `app/${'b'.repeat(5000)}`,
      `${'é'.repeat(128)}`,
      `${'a/'.repeat(2100)}index.html`,
      `${`${'c'.repeat(200)}/`.repeat(25)}index.html`,
      'app\\index.html',
      '..\\..\\etc\\passwd',
      '../outside.txt',
      'app/../../etc/passwd',
    ];
    expect(names.map((name) => [name.slice(0, 40), fileUnder(root, name)])).toEqual(names.map((name) => [name.slice(0, 40), 'impossible']));
  });

  it('never throws for a name the file system refuses', () => {
    expect(statFile(path.join(root, 'app', 'index.html', 'x'))).toBe('impossible');
    expect(statFile(path.join(root, 'x'.repeat(300)))).toBe('impossible');
    expect(statFile(`${root}/a\0b`)).toBe('impossible');
    expect(statFile(path.join(root, 'missing'))).toBe('absent');
    expect(typeof statFile(path.join(root, 'outside.txt'))).toBe('object');
  });
});
