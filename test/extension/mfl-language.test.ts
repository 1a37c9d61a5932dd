// `.mfl` as a language in the manifest: machin program files get their own language (not plain
// text), with a grammar, `//` comments and bracket pairs, an icon, and breakpoints allowed in them.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MFL_KEYWORDS } from '../../replay-engine/machin/source/mfl-lexer';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const contributes = pkg.contributes;
const language = contributes.languages.find((l: { id: string }) => l.id === 'mfl');

test('.mfl files open as the mfl language with comments and brackets configured', () => {
  assert.ok(language, 'no mfl language');
  assert.deepEqual(language.extensions, ['.mfl']);
  assert.ok(language.aliases.includes('machin'));
  const config = JSON.parse(readFileSync(join(root, language.configuration), 'utf8'));
  assert.equal(config.comments.lineComment, '//');
  assert.deepEqual(config.brackets, [['{', '}'], ['[', ']'], ['(', ')']]);
});

test('the mfl language has an icon for light and dark themes, shipped in the package', () => {
  const ignore = readFileSync(join(root, '.vscodeignore'), 'utf8');
  for (const theme of ['light', 'dark']) {
    const file = language.icon[theme] as string;
    assert.ok(existsSync(join(root, file)), `${file} is missing`);
    assert.match(readFileSync(join(root, file), 'utf8'), /^<svg /);
    assert.ok(ignore.includes(`!${file.replace('./', '').replace(/mfl-(light|dark)\.svg$/, 'mfl-*.svg')}`), `${file} is left out of the .vsix`);
  }
});

test('.mfl files wrap by default: a one-line function\'s statement at column 55 and its inline values stay on screen (issue 29; test/e2e/source-on-screen.e2e.ts)', () => {
  assert.equal(contributes.configurationDefaults['[mfl]']['editor.wordWrap'], 'on');
});

test('breakpoints can be set in .mfl files', () => {
  assert.ok(contributes.breakpoints.some((b: { language: string }) => b.language === 'mfl'));
});

test('the grammar colours every machin keyword, comments and strings', () => {
  const grammar = contributes.grammars.find((g: { language: string }) => g.language === 'mfl');
  assert.equal(grammar.scopeName, 'source.mfl');
  const tm = JSON.parse(readFileSync(join(root, grammar.path), 'utf8'));
  assert.equal(tm.scopeName, grammar.scopeName);
  const code = tm.repository.code.patterns as Array<{ match: string; name?: string }>;
  const keywordRules = code.filter((p) => p.name?.startsWith('keyword.') || p.name?.startsWith('constant.language'));
  for (const kw of MFL_KEYWORDS) {
    assert.ok(keywordRules.some((p) => new RegExp(`^(?:${p.match})$`).test(kw)), `keyword ${kw} is not coloured`);
  }
  assert.ok(new RegExp(tm.repository.comment.match).test('x := 1 // note'));
  assert.equal(tm.repository.string.begin, '"');
  assert.ok(tm.patterns.findIndex((p: { include: string }) => p.include === '#comment') < tm.patterns.findIndex((p: { include: string }) => p.include === '#code'), 'comments win over code');
});
